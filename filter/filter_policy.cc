#include "filter/filter_policy.h"

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "filter/encodings.h"

namespace sstfilter {

namespace {

class BloomFilterPolicy final : public FilterPolicy {
 public:
  // REQUIRES: options resolved (ResolveFilterOptions).
  explicit BloomFilterPolicy(const FilterOptions& options) : options_(options) {}

  const char* Name() const override { return kBloomPolicyName; }

  void CreateFilter(absl::Span<const std::string_view> keys,
                    std::string* dst) const override {
    VisitEncoding(options_.encoding, [&](auto encoding) {
      typename decltype(encoding)::Builder builder(options_.bits_per_key);
      for (std::string_view key : keys) builder.AddKey(key);
      builder.Finish(dst);
    });
  }

  bool KeyMayMatch(std::string_view key, std::string_view filter) const override {
    return VisitEncodingOf(filter, [&](auto encoding) {
      return typename decltype(encoding)::Reader(filter).MayMatch(key);
    });
  }

 private:
  const FilterOptions options_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewFilterPolicy(
    const FilterOptions& options) {
  absl::StatusOr<FilterOptions> resolved = ResolveFilterOptions(options);
  if (!resolved.ok()) return resolved.status();
  if (resolved->compact_from_level.has_value()) {
    // CreateFilter is not told which table, let alone which level, it builds
    // for (LevelDB's FilterPolicy neither): one format for every filter.
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: %s=%d needs a host that tells the policy each table's level (RocksDB); this "
        "policy (and LevelDB's) writes one format for every table: drop %s, or choose "
        "format=compact for all", kBloomPolicyName, kCompactFromLevelName,
        *resolved->compact_from_level, kCompactFromLevelName));
  }
  return std::make_unique<BloomFilterPolicy>(*resolved);
}

}  // namespace sstfilter
