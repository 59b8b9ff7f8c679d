// The one list of sstfilter's encodings. Everything that handles more than
// one encoding (the policies, the reader dispatch, the tools, the
// benchmarks) takes them from here.
//
// An encoding is one Encoding<Builder, Reader, info> (encoding_info.h),
// declared beside its builder and reader (LevelDbEncoding in leveldb/bloom.h,
// CacheLocalEncoding in cache_local/bloom.h, CompactEncoding in
// compact/filter.h), its info in <name>_encoding.cc:
//   E::Builder  (double bits_per_key); (AddKey | AddHash)* Finish; Hash,
//               static HashKey(key), NumEntries(), ForEachHash(f),
//               Finish(std::string*), FinishSize() then FinishInto(char*)
//               (FinishSize builds the filter when its size depends on it:
//               compact), num_probes(), the size formula FilterSize(n) and
//               its inverse MaxEntriesForSize; for sizing to the allocator
//               (memory_sizing.h), leveldb and cache_local also have
//               FittingFilterSize(n, bytes) and FinishInto(char*, bytes)
//   E::Reader   (string_view filter); MayMatch(key), HashMayMatch(hash),
//               MayMatchBatch(keys, out), state(); fails open
//   E::kInfo    name, title, how its bytes are recognised, FP model, how
//               tools describe it (EncodingInfo, encoding_info.h)
// Adding an encoding: its own files (listed in CMakeLists.txt), one
// FilterFormat value (filter_format.h), one entry in Encodings and one
// FormatOf check below. Tests, tools and benchmarks loop over AllFormats()
// and ForEachEncoding, so they cover it without edits.
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

#include "absl/types/span.h"
#include "filter/cache_local/bloom.h"
#include "filter/compact/filter.h"
#include "filter/encoding_info.h"
#include "filter/filter_format.h"
#include "filter/leveldb/bloom.h"

namespace sstfilter {

// In FilterFormat order (filter_format.h). Encodings tell their bytes apart
// by the final byte: LevelDB's k is 1..30; the tags above 30 in use are
// kCacheLocalTag (67) and kCompactTag (70).
using Encodings = std::tuple<LevelDbEncoding, CacheLocalEncoding, CompactEncoding>;

// Bytes no encoding recognises (a reserved tag from a newer sstfilter, or
// damage): read as "may match" for every key, never a false negative.
struct UnrecognisedEncoding {
  class Reader {
   public:
    explicit Reader(std::string_view /*filter*/) {}
    bool MayMatch(std::string_view /*key*/) const { return true; }
    void MayMatchBatch(absl::Span<const std::string_view> keys, bool* out) const {
      for (size_t i = 0; i < keys.size(); ++i) out[i] = true;
    }
    FilterState state() const { return FilterState::kMatchEverything; }
  };
  static FilterDescription Describe(std::string_view filter);
};

inline constexpr size_t kNumFormats = std::tuple_size_v<Encodings>;

// Calls f(E{}) for each encoding E, in FilterFormat order.
template <typename F>
void ForEachEncoding(F&& f) {
  std::apply([&f](auto... encoding) { (f(encoding), ...); }, Encodings{});
}

// The FilterFormat of encoding E.
template <typename E, size_t I = 0>
constexpr FilterFormat FormatOf() {
  static_assert(I < kNumFormats, "not one of Encodings");
  if constexpr (std::is_same_v<E, std::tuple_element_t<I, Encodings>>) {
    return static_cast<FilterFormat>(I);
  } else {
    return FormatOf<E, I + 1>();
  }
}
static_assert(FormatOf<LevelDbEncoding>() == FilterFormat::kLevelDb);
static_assert(FormatOf<CacheLocalEncoding>() == FilterFormat::kCacheLocal);
static_assert(FormatOf<CompactEncoding>() == FilterFormat::kCompact);

namespace encodings_internal {

template <size_t I, typename F>
decltype(auto) VisitEncodingAt(size_t index, F& f) {
  using E = std::tuple_element_t<I, Encodings>;
  if constexpr (I + 1 == kNumFormats) {
    assert(index == I && "not a FilterFormat; see IsKnownFormat");
    return f(E{});
  } else {
    if (index == I) return f(E{});
    return VisitEncodingAt<I + 1>(index, f);
  }
}

template <size_t I, typename F>
decltype(auto) VisitRecognisingEncoding(std::string_view filter, F& f) {
  if constexpr (I == kNumFormats) {
    return f(UnrecognisedEncoding{});
  } else {
    using E = std::tuple_element_t<I, Encodings>;
    if (E::kInfo.recognises(filter)) return f(E{});
    return VisitRecognisingEncoding<I + 1>(filter, f);
  }
}

}  // namespace encodings_internal

// Returns f(E{}) for the encoding E of format. f must return one type for
// every encoding.
template <typename F>
decltype(auto) VisitEncoding(FilterFormat format, F&& f) {
  return encodings_internal::VisitEncodingAt<0>(static_cast<size_t>(format), f);
}

// Returns f(E{}) for the encoding whose bytes filter holds, or
// f(UnrecognisedEncoding{}) when none recognises them.
template <typename F>
decltype(auto) VisitEncodingOf(std::string_view filter, F&& f) {
  return encodings_internal::VisitRecognisingEncoding<0>(filter, f);
}

// The filter E's builder makes for n keys at bits_per_key, in figures.
template <typename E>
FilterPlan PlanFilter(size_t num_keys, double bits_per_key) {
  const typename E::Builder builder(bits_per_key);
  return {builder.num_probes(), builder.FilterSize(num_keys),
          E::kInfo.expected_fp_rate(num_keys, bits_per_key),
          E::kInfo.plan_details(num_keys, bits_per_key)};
}

// What a filter's bytes hold, for tools. Never fails.
FilterDescription DescribeFilter(std::string_view filter);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ENCODINGS_H_
