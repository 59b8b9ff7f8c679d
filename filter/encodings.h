// The one list of sstfilter's encodings. Everything that handles more than
// one encoding (the policies, the reader dispatch, the tools, the tests, the
// fuzz targets and the benchmarks) takes them from here.
//
// An encoding is one Encoding<Builder, Reader, kInfo> (encoding_info.h)
// meeting the contract of encoding_contract.h, which is checked below for
// every entry: a missing part does not compile.
//
// A new encoding touches exactly:
//   - its folder, filter/<name>/: format description, builder, reader, probe
//     math, kernels, and <name>/encoding.cc defining its EncodingInfo (its
//     name, title and final-byte tag among them);
//   - its sources in sstfilter_SOURCES (sstfilter.mk, the one source list
//     every build reads);
//   - one EncodingId value (encoding_id.h), before kCount;
//   - one entry in Encodings below and the include of its header;
//   - its independent reference in the round-trip fuzzer
//     (fuzz/build_roundtrip_fuzzer.cc does not compile without one: the
//     clang fuzz build, tools/dev fuzz and CI's fuzz step);
//   - its golden files, tests/golden/<name>_*, written once by
//     SSTFILTER_WRITE_GOLDEN=1 build/tests/filter_golden_test (the test
//     fails for an encoding without them);
//   - its row, column, bullet and tag row in docs/encodings.md's "Option
//     strings by encoding", "At a glance", "Which to choose" and "Final-byte
//     tags" (the docs_encodings test fails without them).
// Its name: lowercase letters, digits and '_' (encodings_test).
// By choice, a reader fuzzer of its own and speed targets
// (bench/speed_targets.cc; without them the micro bench says "no target").
// Tests, the other fuzz targets, tools, scripts and benchmarks take the
// encodings from AllEncodingIds() and ForEachEncoding (scripts through
// `sstfilter_params --list_encodings`), so they cover it without edits.
#ifndef SSTFILTER_FILTER_ENCODINGS_H_
#define SSTFILTER_FILTER_ENCODINGS_H_

#include <cassert>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "filter/banded/filter.h"
#include "filter/cache_local/bloom.h"
#include "filter/compact/filter.h"
#include "filter/encoding_contract.h"
#include "filter/encoding_info.h"
#include "filter/encoding_id.h"
#include "filter/leveldb/bloom.h"
#include "filter/simd_level.h"

namespace sstfilter {

// In EncodingId order (encoding_id.h). Encodings tell their bytes apart
// by the final byte: LevelDB's k is 1..30, the others' EncodingInfo::tag.
using Encodings =
    std::tuple<LevelDbEncoding, CacheLocalEncoding, CompactEncoding, BandedEncoding>;

// Bytes no encoding recognises (a reserved tag from a newer sstfilter, or
// damage): read as "may match" for every key, never a false negative.
struct UnrecognisedEncoding {
  class Reader {
   public:
    explicit Reader(std::string_view /*filter*/) {}
    bool MayMatch(std::string_view /*key*/) const { return true; }
    void MayMatchBatch(absl::Span<const std::string_view> keys, bool* out) const {
      MayMatchEach(keys.size(), nullptr, out);
    }
    template <typename KeyAt>
    void MayMatchEach(size_t n, KeyAt /*key_at*/, bool* out) const {
      for (size_t i = 0; i < n; ++i) out[i] = true;
    }
    FilterState state() const { return FilterState::kMatchEverything; }
  };
  static FilterDescription Describe(std::string_view filter);
};

inline constexpr size_t kNumEncodings = std::tuple_size_v<Encodings>;

// Calls f(E{}) for each encoding E, in EncodingId order.
template <typename F>
void ForEachEncoding(F&& f) {
  std::apply([&f](auto... encoding) { (f(encoding), ...); }, Encodings{});
}

namespace encodings_internal {
// Compiles only if the I-th entry meets the contract and sits at its own
// EncodingId's position.
template <size_t I>
constexpr bool CheckEntry() {
  using E = std::tuple_element_t<I, Encodings>;
  static_assert(CheckEncodingContract<E>());
  static_assert(static_cast<size_t>(E::kId) == I,
                "Encodings: an entry not at its EncodingId's position (encoding_id.h)");
  return true;
}
template <size_t... I>
constexpr bool CheckEntries(std::index_sequence<I...>) {
  return (CheckEntry<I>() && ...);
}
}  // namespace encodings_internal
static_assert(kNumEncodings == static_cast<size_t>(EncodingId::kCount),
              "Encodings: an EncodingId value without its entry, or an entry too many");
static_assert(encodings_internal::CheckEntries(std::make_index_sequence<kNumEncodings>{}));

namespace encodings_internal {

template <size_t I, typename F>
decltype(auto) VisitEncodingAt(size_t index, F& f) {
  using E = std::tuple_element_t<I, Encodings>;
  if constexpr (I + 1 == kNumEncodings) {
    assert(index == I && "not a EncodingId; see IsKnownEncoding");
    return f(E{});
  } else {
    if (index == I) return f(E{});
    return VisitEncodingAt<I + 1>(index, f);
  }
}

template <size_t I, typename F>
decltype(auto) VisitRecognisingEncoding(std::string_view filter, F& f) {
  if constexpr (I == kNumEncodings) {
    return f(UnrecognisedEncoding{});
  } else {
    using E = std::tuple_element_t<I, Encodings>;
    // E::kInfo.recognises is this function; called directly it inlines.
    if (E::Reader::Recognises(filter)) return f(E{});
    return VisitRecognisingEncoding<I + 1>(filter, f);
  }
}

}  // namespace encodings_internal

// Returns f(E{}) for the encoding E whose E::kId is `encoding`. f must return one type for
// every encoding.
template <typename F>
decltype(auto) VisitEncoding(EncodingId encoding, F&& f) {
  return encodings_internal::VisitEncodingAt<0>(static_cast<size_t>(encoding), f);
}

// Returns f(E{}) for the encoding whose bytes filter holds (the first whose
// E::Reader::Recognises, E::kInfo.recognises, takes them), or
// f(UnrecognisedEncoding{}) when none recognises them.
template <typename F>
decltype(auto) VisitEncodingOf(std::string_view filter, F&& f) {
  return encodings_internal::VisitRecognisingEncoding<0>(filter, f);
}

// Each encoding's E::Reader::OnceContext, in EncodingId order: what its
// one-shot queries (E::Reader::MayMatchOnce) resolve ahead, once, at a SIMD
// level (OneShotQuery, filter_policy.h, holds one).
class OnceContexts {
 public:
  explicit OnceContexts(SimdLevel simd) : contexts_(Make(simd, static_cast<Encodings*>(nullptr))) {}

  template <typename E>
  const typename E::Reader::OnceContext& Of() const {
    return std::get<static_cast<size_t>(E::kId)>(contexts_);
  }

 private:
  template <typename... Es>
  static std::tuple<typename Es::Reader::OnceContext...> Make(SimdLevel simd, std::tuple<Es...>*) {
    return std::tuple<typename Es::Reader::OnceContext...>(
        typename Es::Reader::OnceContext(simd)...);
  }

  decltype(Make(SimdLevel{}, static_cast<Encodings*>(nullptr))) contexts_;
};

// The filter E's builder makes for n keys at bits_per_key, in figures.
template <typename E>
FilterPlan PlanFilter(size_t num_keys, double bits_per_key) {
  const typename E::Builder builder(bits_per_key);
  return {builder.num_probes(), builder.FilterSize(num_keys),
          E::kInfo.expected_fp_rate(num_keys, bits_per_key),
          E::kInfo.plan_details(num_keys, bits_per_key)};
}

// The facts of the encoding `encoding` names (E::kInfo).
const EncodingInfo& EncodingInfoOf(EncodingId encoding);

// What a filter's bytes hold, for tools. Never fails.
FilterDescription DescribeFilter(std::string_view filter);

// The kernels each encoding runs in this process, for benchmark reports:
// (name, EncodingInfo::kernels()) in encoding order, e.g. ("cache_local", "avx2").
std::vector<std::pair<std::string, std::string>> EncodingSimdLevels();
// One line naming the CPU and those levels (and SSTFILTER_SIMD's cap when
// set): what every benchmark prints beside its figures.
std::string MachineLine();

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ENCODINGS_H_
