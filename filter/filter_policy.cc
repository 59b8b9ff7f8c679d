#include "filter/filter_policy.h"

#include <type_traits>

#include "absl/status/status.h"
#include "filter/accuracy.h"
#include "filter/encodings.h"
#include "filter/option_fields.h"

namespace sstfilter {

namespace {

class BloomFilterPolicy final : public FilterPolicy {
 public:
  // REQUIRES: options resolved (ResolveFilterOptions).
  explicit BloomFilterPolicy(const FilterOptions& options)
      : options_(options), accuracy_(options) {}

  const char* Name() const override { return kBloomPolicyName; }

  void CreateFilter(absl::Span<const std::string_view> keys,
                    std::string* dst) const override {
    VisitEncoding(options_.encoding, [&](auto encoding) {
      // keys.size() counts duplicates too: a size class at or above the
      // filter's, so its FP target still holds (filter/fp_target.h).
      typename decltype(encoding)::Builder builder(
          accuracy_.BitsPerKey(options_.encoding, keys.size()));
      for (std::string_view key : keys) builder.AddKey(key);
      builder.Finish(dst);
    });
  }

  bool KeyMayMatch(std::string_view key, std::string_view filter) const override {
    return query_.KeyMayMatch(key, filter);
  }

 private:
  const FilterOptions options_;
  const Accuracy accuracy_;
  const OneShotQuery query_;
};

}  // namespace

OneShotQuery::OneShotQuery(SimdLevel simd) : simd_(ClampSimdLevel(simd)), contexts_(simd_) {}

bool OneShotQuery::KeyMayMatch(std::string_view key, std::string_view filter) const {
  // The encoding by its recogniser (encodings.h, in order; they inline, and
  // so does the LevelDB format's query), then its one-shot query: the
  // others' are out of line, so that their XXH3 hash does not give every
  // query (LevelDB's too) its register saves and stack frame.
  return VisitEncodingOf(filter, [&](auto encoding) {
    using E = decltype(encoding);
    if constexpr (std::is_same_v<E, UnrecognisedEncoding>) {
      return true;  // Its reader's every answer.
    } else {
      return E::Reader::MayMatchOnce(filter, key, contexts_.Of<E>());
    }
  });
}

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewFilterPolicy(
    const FilterOptions& options) {
  absl::StatusOr<FilterOptions> resolved = ResolveFilterOptions(options);
  if (!resolved.ok()) return resolved.status();
  // CreateFilter is not told which table, let alone which level, it builds
  // for (LevelDB's FilterPolicy neither): the fields for a table's level or
  // tree are refused (the options table's OptionHost::kTableAware).
  if (absl::Status host_free = CheckHostFree(*resolved); !host_free.ok()) return host_free;
  return std::make_unique<BloomFilterPolicy>(*resolved);
}

}  // namespace sstfilter
