// Which way the census's rebuild loop last moved each level's filters, and
// when: kept by the census while the DB is open (census_listener.h) and
// carried to its next instance in the traffic file (traffic_file.h), so
// that a level's move, once begun, is carried through and is not moved
// back within kPaybackHorizon, whichever instance serves the Gets.
#ifndef SSTFILTER_TABLE_CENSUS_LEVEL_MOVES_H_
#define SSTFILTER_TABLE_CENSUS_LEVEL_MOVES_H_

#include <chrono>
#include <map>
#include <utility>

#include "filter/plan/rebuild_gain.h"
#include "table/census/traffic_file.h"

namespace sstfilter {

// By level: whether to fewer bits per key, and when (this process's
// steady clock) the loop last rewrote one of its tables.
using LevelMoveTimes = std::map<int, std::pair<bool, std::chrono::steady_clock::time_point>>;

// The moves of `moves` within kPaybackHorizon of `steady_now`, as the
// traffic file says them: in the wall clock's seconds as of `wall_now`.
std::map<int, LevelMove> MovesToWrite(const LevelMoveTimes& moves,
                                      std::chrono::system_clock::time_point wall_now,
                                      std::chrono::steady_clock::time_point steady_now);

// The moves a traffic file carried that are within kPaybackHorizon of
// `wall_now`, in the steady clock as of `steady_now`. One the wall clock
// puts after `wall_now` (the clock was set back since) counts as made now.
LevelMoveTimes MovesCarried(const std::map<int, LevelMove>& moves,
                            std::chrono::system_clock::time_point wall_now,
                            std::chrono::steady_clock::time_point steady_now);

// Whether `gain` would move its level the other way from the loop's last
// move there (`moves`), under kPaybackHorizon before `now`: it waits, as a
// plan that flips as the rewrites change the tree would rewrite a level
// back and forth. A table planned by its key range's share of the Gets
// (access_aware) never waits: its level's tables move both ways, hot ones
// to more bits and cold ones to fewer, and each is rewritten again only
// once its own plan moves (census_listener.h's rebuilt_for).
bool WaitsForTheOtherMove(const LevelMoveTimes& moves, const TableRebuild& gain,
                          std::chrono::steady_clock::time_point now);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_LEVEL_MOVES_H_
