#include "table/census/level_moves.h"

#include <algorithm>
#include <cstdint>

namespace sstfilter {

std::map<int, LevelMove> MovesToWrite(const LevelMoveTimes& moves,
                                      std::chrono::system_clock::time_point wall_now,
                                      std::chrono::steady_clock::time_point steady_now) {
  std::map<int, LevelMove> written;
  for (const auto& [level, move] : moves) {
    const auto age = steady_now - move.second;
    if (age >= kPaybackHorizon) continue;
    const auto at = wall_now - std::chrono::duration_cast<std::chrono::system_clock::duration>(
                                   std::max(age, decltype(age)::zero()));
    const int64_t seconds =
        std::chrono::duration_cast<std::chrono::seconds>(at.time_since_epoch()).count();
    written[level] = {move.first, std::max<int64_t>(seconds, 0)};
  }
  return written;
}

LevelMoveTimes MovesCarried(const std::map<int, LevelMove>& moves,
                            std::chrono::system_clock::time_point wall_now,
                            std::chrono::steady_clock::time_point steady_now) {
  const int64_t now_seconds =
      std::chrono::duration_cast<std::chrono::seconds>(wall_now.time_since_epoch()).count();
  LevelMoveTimes carried;
  for (const auto& [level, move] : moves) {
    const std::chrono::seconds age(std::max<int64_t>(now_seconds - move.unix_seconds, 0));
    if (age >= kPaybackHorizon) continue;
    carried[level] = {move.fewer_bits, steady_now - age};
  }
  return carried;
}

bool WaitsForTheOtherMove(const LevelMoveTimes& moves, const TableRebuild& gain,
                          std::chrono::steady_clock::time_point now) {
  if (gain.table.share > 0) return false;
  const auto moved = moves.find(gain.table.level);
  const bool fewer = gain.table.planned_bits < gain.table.built_bits;
  return moved != moves.end() && moved->second.first != fewer &&
         now - moved->second.second < kPaybackHorizon;
}

}  // namespace sstfilter
