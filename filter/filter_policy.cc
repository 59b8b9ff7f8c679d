#include "filter/filter_policy.h"

#include "filter/encodings.h"

namespace sstfilter {

namespace {

class BloomFilterPolicy final : public FilterPolicy {
 public:
  // REQUIRES: options resolved (ResolveBloomOptions).
  explicit BloomFilterPolicy(const BloomOptions& options) : options_(options) {}

  const char* Name() const override { return kBloomPolicyName; }

  void CreateFilter(absl::Span<const std::string_view> keys,
                    std::string* dst) const override {
    VisitEncoding(options_.format, [&](auto encoding) {
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
  const BloomOptions options_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewBloomFilterPolicy(
    const BloomOptions& options) {
  absl::StatusOr<BloomOptions> resolved = ResolveBloomOptions(options);
  if (!resolved.ok()) return resolved.status();
  return std::make_unique<BloomFilterPolicy>(*resolved);
}

}  // namespace sstfilter
