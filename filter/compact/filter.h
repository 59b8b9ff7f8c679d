// The compact encoding: a 4-wise binary fuse filter with fractional
// fingerprints (compact/math.h), for the memory a Bloom filter wastes.
//
// Format. A structured encoding's frame (structured/frame.h): the final
// byte is kCompactTag (70, 'F'); the byte before it says what the body is:
//   kCompactBodyFuse (1): the fuse filter, then an 18-byte trailer
//     array_bytes   cells bit-packed (compact/probes.h): cell i holds r - 1
//                   bits if i < narrow_cells, else r
//     4 bytes       segment_count S (little-endian); cells = (S + 3) * 2^lg
//     4 bytes       narrow_cells (<= S * 2^lg)
//     4 bytes       seed
//     1 byte        lg = log2 of the segment length, 0..18
//     1 byte        r, the fingerprint bits, 1..32
//     1 byte        arity, 4
//     1 byte        hash kind: 2 = XXH3 64-bit, seed 0 (key_hash64.h),
//                   cells by one 128-bit multiply (compact/probes.h); any
//                   other kind, 1 among them, is not read (matches all)
//     1 byte        body kind, 1
//     1 byte        tag
//   kSmallBloomBody (2) or kCompactBodyFallbackBloom (3): a whole
//     cache-local Bloom filter (structured/tagged_bloom.h). Small: for few
//     keys (or none) it is smaller than a fuse filter. Fallback: the fuse
//     filter could not be built (every seed failed, or the temporary memory
//     was over its limit or could not be allocated).
//
// Reader contract (fail open, never a false negative, never out of bounds):
// any other final byte, body kind, hash kind, arity, r, lg, S = 0, a cell
// count of 2^32 or more, narrow_cells > S * 2^lg, or an array length other
// than ceil(((S + 3) 2^lg r - narrow_cells) / 8) matches everything; a
// Bloom body is read by CacheLocalBloomReader with its own contract. Cell
// loads are 8 bytes wide; the trailer (>= 7 bytes) after the array keeps
// them inside the filter.
#ifndef SSTFILTER_FILTER_COMPACT_FILTER_H_
#define SSTFILTER_FILTER_COMPACT_FILTER_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "filter/cache_local/bloom.h"
#include "filter/compact/fuse_peeler.h"
#include "filter/compact/kernels.h"
#include "filter/compact/math.h"
#include "filter/compact/probes.h"
#include "filter/encoding_info.h"
#include "filter/key_hash64.h"
#include "filter/reader_base.h"
#include "filter/structured/builder.h"
#include "filter/structured/frame.h"
#include "filter/structured/reader.h"

namespace sstfilter {

inline constexpr unsigned char kCompactTag = 'F';
inline constexpr unsigned char kCompactBodyFuse = kStructuredBody;
inline constexpr unsigned char kCompactBodyFallbackBloom = kFallbackBloomBody;
inline constexpr unsigned char kCompactHashXxh3 = 2;
inline constexpr size_t kCompactFuseTrailerBytes = 18;
inline constexpr size_t kCompactBloomTrailerBytes = kFrameBytes;

// Whether filter carries this encoding's tag (its final byte) after a body
// kind; the rest is checked by the reader's parses.
inline bool IsCompactFilter(std::string_view filter) { return HasFrameTag(filter, kCompactTag); }

// What a fuse body's probes need.
struct CompactFuseLayout {
  const char* array = nullptr;
  FuseShape shape;
  compact::FuseParams params;  // compact::FuseParams::Of(shape).
  uint64_t multiplier = 0;     // compact::SeedMultiplier(seed).
};

// The format's one parse of a fuse body (the reader contract above): the
// 18-byte trailer's every field in range, and the array as long as its
// shape says. Anything else (not a compact filter, another body kind) may
// match; the state is never kMatchNothing.
ParsedFilter<CompactFuseLayout> ParseCompactFuse(std::string_view filter);

// Construction settings; the defaults are what policies use.
struct CompactBuildOptions {
  // Seeds tried before falling back to a Bloom filter. Tests set 0 to force
  // the fallback.
  int max_seeds = 10;
  // Most temporary memory one fuse construction may take
  // (CompactBuildTempBytes); a filter that would need more is written as a
  // Bloom filter (a fallback).
  size_t max_temp_bytes = size_t{1} << 30;
};

// Bytes held while building a fuse filter of this shape for n keys: the
// hashes (HashBlocks) and the peeler's cells. The output is not counted.
size_t CompactBuildTempBytes(size_t num_keys, const FuseShape& shape);

// The structured frame's builder (structured/builder.h) with a fuse body:
// FilterSize(n) is the smaller of the fuse filter (array + 18) and the
// Bloom body; FittingBuiltSize refits the fuse filter's fingerprints on its
// cells (FitFingerprints). Repeated hashes (other than adjacent ones) are
// removed when the construction fails because of them.
class CompactFilterBuilder
    : public StructuredBuilder<CompactFilterBuilder, FuseShape, kCompactTag> {
 public:
  // REQUIRES: 0 < bits_per_key <= kMaxBitsPerKey.
  explicit CompactFilterBuilder(double bits_per_key, CompactBuildOptions options = {});

  // Whether n distinct entries get a fuse filter (else a Bloom filter).
  bool UsesFuse(size_t num_entries) const { return PlannedShape(num_entries).has_value(); }
  // The seed index the last fuse construction ended at (0: the first seed
  // peeled); max_seeds after a fallback.
  int last_seeds_tried() const { return last_seeds_tried_; }

 private:
  friend StructuredBuilder;
  // The frame's hooks (structured/builder.h).
  std::optional<FuseShape> PlanBody(size_t num_entries) const;
  static size_t BodyFilterSize(const FuseShape& shape);
  static std::optional<FuseShape> FitBody(const FuseShape& built, size_t bytes);
  bool BuildBody();
  void WriteBody(const FuseShape& widths, char* out);
  void ReleaseBody() { peeler_.Release(); }

  bool TryFuse(size_t num_keys);
  bool RemoveDuplicates();  // Whether any were removed.
  void KeepFirstOf(const std::vector<uint64_t>& repeated);

  CompactBuildOptions options_;
  FusePeeler peeler_;
  uint32_t seed_ = 0;  // Of the built fuse filter.
  int last_seeds_tried_ = 0;
};

// The structured frame's reader (structured/reader.h) with a fuse body.
class CompactFilterReader
    : public StructuredReader<CompactFilterReader, CompactFuseLayout, kCompactTag> {
 public:
  // `simd` picks the batched query kernel (compact/kernels.h) and the Bloom
  // body's kernels; every level gives the same answers.
  explicit CompactFilterReader(std::string_view filter, SimdLevel simd = BestSimdLevel())
      : StructuredReader(filter, simd, ParseCompactFuse, kCompactArity),
        group_kernel_(GetCompactQueryKernel(ClampSimdLevel(simd))) {}

  // One query of a filter's bytes with no reader built (OneShotQuery,
  // filter_policy.h): MayMatch's answer. A fuse body resolves nothing
  // ahead: the context is the Bloom body's. No allocation.
  using OnceContext = CacheLocalBloomReader::OnceContext;
  static bool MayMatchOnce(std::string_view filter, std::string_view key,
                           const OnceContext& context);

 private:
  friend StructuredReader;
  static bool FuseMayMatch(const CompactFuseLayout& l, uint64_t h) {
    return compact::FuseMayMatch(l.array, h, compact::CellsOf(h, l.multiplier, l.params), l.params);
  }
  bool BodyMayMatch(uint64_t h) const { return FuseMayMatch(layout_, h); }
  template <typename KeyAt>
  void BodyMayMatchEach(size_t n, KeyAt key_at, bool* out) const;

  CompactQueryKernel group_kernel_ = nullptr;  // None: the scalar loop.
};

template <typename KeyAt>
void CompactFilterReader::BodyMayMatchEach(size_t n, KeyAt key_at, bool* out) const {
  // Groups of up to 32 keys. With a kernel and at least 16 keys, hash the
  // group and hand it over (compact/kernels.h). Otherwise chunks of 8: hash,
  // locate and prefetch key by key, then probe, so the cache misses of a big
  // filter overlap the next keys' hashing.
  constexpr size_t kChunk = 8;  // Chosen by measurement: docs/results.md#compact-tuning.
  const CompactFuseLayout& l = layout_;
  uint64_t hashes[kCompactSimdMaxGroup];
  compact::Probe probes[kChunk];
  for (size_t group = 0; group < n; group += kCompactSimdMaxGroup) {
    const size_t group_size = std::min(kCompactSimdMaxGroup, n - group);
    if (group_kernel_ != nullptr && group_size >= kCompactSimdMinGroup) {
      for (size_t i = 0; i < group_size; ++i) hashes[i] = KeyHash64(key_at(group + i));
      group_kernel_(hashes, group_size, l.array, l.multiplier, l.params, out + group);
      continue;
    }
    for (size_t base = group; base < group + group_size; base += kChunk) {
      const size_t chunk = std::min(kChunk, group + group_size - base);
      for (size_t i = 0; i < chunk; ++i) {
        hashes[i] = KeyHash64(key_at(base + i));
        probes[i] = compact::ProbeOf(compact::CellsOf(hashes[i], l.multiplier, l.params), l.params);
        compact::PrefetchProbe(l.array, probes[i]);
      }
      for (size_t i = 0; i < chunk; ++i) {
        out[base + i] = compact::ProbeMayMatch(l.array, hashes[i], probes[i]);
      }
    }
  }
}

// Defined in compact/encoding.cc.
extern const EncodingInfo kCompactEncodingInfo;
using CompactEncoding = Encoding<CompactFilterBuilder, CompactFilterReader, kCompactEncodingInfo,
                                 EncodingId::kCompact>;

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_COMPACT_FILTER_H_
