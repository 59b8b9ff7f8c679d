#include "table/census/rebuild_loop.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "rocksdb/options.h"

namespace sstfilter {

namespace {

// Points a rewrite's options at `canceled` where RocksDB has the field.
template <typename Options>
auto SetCanceled(Options* options, std::atomic<bool>* canceled, int)
    -> decltype(options->canceled = canceled, void()) {
  options->canceled = canceled;
}
template <typename Options>
void SetCanceled(Options*, std::atomic<bool>*, long) {}

}  // namespace

RebuildLoop::RebuildLoop(rocksdb::DB* db, Owner owner) : db_(db), owner_(std::move(owner)) {
  thread_ = std::thread([this] { Run(); });
}

void RebuildLoop::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  canceled_ = true;
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool RebuildLoop::Busy() {
  bool busy = false;
  for (const std::string& property :
       {rocksdb::DB::Properties::kNumRunningCompactions,
        rocksdb::DB::Properties::kNumRunningFlushes, rocksdb::DB::Properties::kMemTableFlushPending,
        rocksdb::DB::Properties::kBackgroundErrors}) {
    uint64_t value = 0;
    busy = busy || !db_->GetIntProperty(property, &value) || value > 0;
  }
  uint64_t pending = 0;  // Left 0 while automatic compactions are off: it never runs.
  if (!busy && !db_->GetOptions().disable_auto_compactions &&
      !db_->GetIntProperty(rocksdb::DB::Properties::kCompactionPending, &pending)) {
    return true;
  }
  const bool declined = declined_.Declined(busy, pending > 0);
  return busy || (pending > 0 && !declined);
}

uint64_t RebuildLoop::Rewrite(const RebuildTarget& target) {
  rocksdb::CompactionOptions options;
  // The column family's own compression for the level, as RocksDB's
  // compactions would write the table.
  options.compression = rocksdb::kDisableCompressionOption;
  SetCanceled(&options, &canceled_, 0);
  rocksdb::CompactionJobInfo info;
  owner_.begin(target);
  const rocksdb::Status status =
      db_->CompactFiles(options, {target.name}, target.level, -1, nullptr, &info);
  owner_.end(target, status, info);
  return status.ok() ? info.stats.total_output_bytes : 0;
}

void RebuildLoop::Run() {
  auto next = std::chrono::steady_clock::now() + kTick;
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    wake_.wait_until(lock, next, [this] { return stopping_; });
    if (stopping_) break;
    lock.unlock();
    const auto start = std::chrono::steady_clock::now();
    next = start + kTick;  // Idle: look again in a tick.
    std::optional<RebuildTarget> target;
    if (!Busy()) target = owner_.pick();
    if (target.has_value()) {
      const uint64_t written = Rewrite(*target);
      // A compaction the rewrite held back (it takes a compaction slot)
      // is queued now: it gets kUnpicked afresh to start.
      declined_.Restart();
      // Paced: the next rewrite waits as long as this one's bytes take at
      // the rate, counted from its start; none sooner after a failed one.
      if (written > 0 && target->bytes_per_second > 0) {
        next = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                           std::chrono::duration<double>(static_cast<double>(written) /
                                                         target->bytes_per_second));
      }
    }
    lock.lock();
  }
}

}  // namespace sstfilter
