#include "bench/libleveldb_adapter.h"

#include <cmath>
#include <vector>

#include "filter/bloom_math.h"
#include "leveldb/filter_policy.h"
#include "leveldb/slice.h"

namespace sstfilter::bench {
namespace {

class LibLevelDbReader : public BenchFilterReader {
 public:
  LibLevelDbReader(const leveldb::FilterPolicy* policy, std::string_view filter)
      : policy_(policy), filter_(filter.data(), filter.size()) {}

  // KeyMayMatch re-reads k and the length on every call: that is its API.
  bool MayMatch(std::string_view key) override {
    return policy_->KeyMayMatch(leveldb::Slice(key.data(), key.size()), filter_);
  }

 private:
  const leveldb::FilterPolicy* policy_;
  leveldb::Slice filter_;
};

class LibLevelDbBenchFilter : public BenchFilter {
 public:
  explicit LibLevelDbBenchFilter(int bits_per_key)
      : bits_per_key_(bits_per_key),
        policy_(leveldb::NewBloomFilterPolicy(bits_per_key)) {}

  void Build(absl::Span<const std::string_view> keys, std::string* out) override {
    // CreateFilter takes an array of Slices; the (reused) conversion costs a
    // 16-byte copy per key, well under 1 ns.
    slices_.resize(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) {
      slices_[i] = leveldb::Slice(keys[i].data(), keys[i].size());
    }
    out->clear();
    policy_->CreateFilter(slices_.data(), static_cast<int>(slices_.size()), out);
  }

  std::unique_ptr<BenchFilterReader> NewReader(std::string_view filter) const override {
    return std::make_unique<LibLevelDbReader>(policy_.get(), filter);
  }

  double ExpectedFpRate(size_t num_keys, size_t /*filter_bytes*/) const override {
    return LevelDbExpectedFpRate(num_keys, bits_per_key_);
  }

 private:
  int bits_per_key_;
  std::unique_ptr<const leveldb::FilterPolicy> policy_;
  std::vector<leveldb::Slice> slices_;
};

}  // namespace

std::unique_ptr<BenchFilter> NewLibLevelDbBenchFilter(double bits_per_key) {
  return std::make_unique<LibLevelDbBenchFilter>(
      static_cast<int>(std::lround(bits_per_key)));
}

}  // namespace sstfilter::bench
