#include "filter/plan/rebuild_queue.h"

#include <utility>

namespace sstfilter {

void RebuildQueue::Reset(std::vector<TableRebuild> tables, double gets_per_second, uint64_t jobs,
                         Clock::time_point now) {
  tables_.assign(std::make_move_iterator(tables.begin()), std::make_move_iterator(tables.end()));
  gets_per_second_ = gets_per_second;
  jobs_ = jobs;
  reckoned_ = now;
}

std::optional<TableRebuild> RebuildQueue::Take(uint64_t jobs, Clock::time_point now) {
  if (jobs != jobs_ || now - reckoned_ >= kRebuildQueueFresh || now < reckoned_) {
    tables_.clear();
  }
  if (tables_.empty()) return std::nullopt;
  TableRebuild next = std::move(tables_.front());
  tables_.pop_front();
  return next;
}

}  // namespace sstfilter
