#include "filter/filter_policy.h"

#include "filter/leveldb_bloom.h"

namespace sstfilter {

namespace {

class BloomFilterPolicy final : public FilterPolicy {
 public:
  explicit BloomFilterPolicy(double bits_per_key)
      : bits_per_key_(bits_per_key) {}

  const char* Name() const override { return kBloomPolicyName; }

  void CreateFilter(absl::Span<const std::string_view> keys,
                    std::string* dst) const override {
    AppendLevelDbBloomFilter(keys, bits_per_key_, dst);
  }

  bool KeyMayMatch(std::string_view key,
                   std::string_view filter) const override {
    return LevelDbBloomMayMatch(filter, key);
  }

 private:
  const double bits_per_key_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewBloomFilterPolicy(
    const BloomOptions& options) {
  absl::StatusOr<double> bits_per_key = ResolveBitsPerKey(options);
  if (!bits_per_key.ok()) return bits_per_key.status();
  return std::make_unique<BloomFilterPolicy>(*bits_per_key);
}

}  // namespace sstfilter
