// The tables one reckoning of the rebuild gains (RebuildsWorthIt) found
// worth rewriting, best first, taken one a rewrite while the reckoning
// holds: no flush, compaction or ingestion of RocksDB's own has begun
// since, and it is younger than kRebuildQueueFresh. A reckoning is the
// rebuild loop's cost (the cache model over every live table: on a large
// tree longer than a rewrite); a rewrite of the loop's own takes its
// table off the plan's list and leaves the others' gains as they were
// reckoned. Pure bookkeeping: the census keeps one a DB instance
// (table/census/census_listener.h).
#ifndef SSTFILTER_FILTER_PLAN_REBUILD_QUEUE_H_
#define SSTFILTER_FILTER_PLAN_REBUILD_QUEUE_H_

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "filter/plan/rebuild_gain.h"

namespace sstfilter {

// How long a reckoning holds: the Get rate and the share of Gets found it
// weighed move over minutes (the rate is read over the last 60 s), and a
// rewrite whose gain it overstated costs one table's bytes.
inline constexpr std::chrono::seconds kRebuildQueueFresh{30};

class RebuildQueue {
 public:
  using Clock = std::chrono::steady_clock;

  // Holds `tables` (best first), reckoned at `now` at `gets_per_second`,
  // after `jobs` of RocksDB's own had begun; what it held before is gone.
  void Reset(std::vector<TableRebuild> tables, double gets_per_second, uint64_t jobs,
             Clock::time_point now);
  // The next table, if the reckoning still holds at `now` with `jobs` of
  // RocksDB's own begun by then; else nothing, and it is emptied.
  std::optional<TableRebuild> Take(uint64_t jobs, Clock::time_point now);
  // The Get rate the tables were reckoned at.
  double gets_per_second() const { return gets_per_second_; }

 private:
  std::deque<TableRebuild> tables_;
  double gets_per_second_ = 0;
  uint64_t jobs_ = 0;
  Clock::time_point reckoned_{};
};

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_PLAN_REBUILD_QUEUE_H_
