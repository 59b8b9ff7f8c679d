// A compaction RocksDB reports pending while it runs nothing: universal
// compaction reports one due whenever its sorted runs reach the trigger,
// also when its picker then declines every run (size ratios), until the
// next flush. Whoever waits for RocksDB's background work to end (the
// census's rebuild loop, the bench's waits) takes such a compaction for
// one RocksDB declined once it has stayed so for a grace period: a leveled
// compaction held back by a full thread pool or paused background work
// looks the same.
#ifndef SSTFILTER_TABLE_CENSUS_DECLINED_COMPACTION_H_
#define SSTFILTER_TABLE_CENSUS_DECLINED_COMPACTION_H_

#include <chrono>

namespace sstfilter {

class DeclinedCompaction {
 public:
  explicit DeclinedCompaction(std::chrono::steady_clock::duration grace) : grace_(grace) {}

  // Given what RocksDB reports now (`busy`: a flush or compaction running,
  // or a flush queued; `pending`: a compaction queued), whether a queued
  // compaction has stayed so with nothing busy for the grace since the
  // last Restart.
  bool Declined(bool busy, bool pending) {
    if (busy || !pending) {
      Restart();
      return false;
    }
    const auto now = std::chrono::steady_clock::now();
    if (since_ == kNever) since_ = now;
    return now - since_ >= grace_;
  }
  // The grace starts afresh at the next pending compaction (one the
  // caller's own work held back is queued as it ends).
  void Restart() { since_ = kNever; }

 private:
  static constexpr auto kNever = std::chrono::steady_clock::time_point::max();
  const std::chrono::steady_clock::duration grace_;
  std::chrono::steady_clock::time_point since_ = kNever;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_DECLINED_COMPACTION_H_
