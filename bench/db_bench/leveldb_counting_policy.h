// A leveldb::FilterPolicy that forwards to another and counts its answers:
// LevelDB has no statistics, so this stands in for RocksDB's
// BLOOM_FILTER_USEFUL / BLOOM_FILTER_FULL_POSITIVE tickers. Name() is the
// wrapped policy's, so LevelDB reads and writes exactly the filter blocks it
// would without the wrapper. LevelDB calls KeyMayMatch only for a table
// whose filter block was written under that name (and only on the thread of
// the Get), once per table consulted.
#ifndef SSTFILTER_BENCH_DB_BENCH_LEVELDB_COUNTING_POLICY_H_
#define SSTFILTER_BENCH_DB_BENCH_LEVELDB_COUNTING_POLICY_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "leveldb/filter_policy.h"
#include "leveldb/slice.h"

namespace sstfilter::db_bench {

class LevelDbCountingPolicy final : public leveldb::FilterPolicy {
 public:
  explicit LevelDbCountingPolicy(std::unique_ptr<const leveldb::FilterPolicy> policy)
      : policy_(std::move(policy)) {}

  const char* Name() const override { return policy_->Name(); }
  void CreateFilter(const leveldb::Slice* keys, int n, std::string* dst) const override {
    policy_->CreateFilter(keys, n, dst);
  }
  bool KeyMayMatch(const leveldb::Slice& key, const leveldb::Slice& filter) const override {
    const bool may_match = policy_->KeyMayMatch(key, filter);
    (may_match ? positive_ : useful_).fetch_add(1, std::memory_order_relaxed);
    if (may_match) ++thread_positives_;
    return may_match;
  }

  // Checks that answered "absent" / "may be present", by every thread.
  uint64_t useful() const { return useful_.load(); }
  uint64_t positive() const { return positive_.load(); }
  // "May be present" answers on the calling thread, by any counting policy,
  // since the thread started (never reset: take differences).
  static uint64_t ThreadPositives() { return thread_positives_; }

 private:
  const std::unique_ptr<const leveldb::FilterPolicy> policy_;
  mutable std::atomic<uint64_t> useful_{0};
  mutable std::atomic<uint64_t> positive_{0};
  static inline thread_local uint64_t thread_positives_ = 0;
};

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_LEVELDB_COUNTING_POLICY_H_
