// The compact encoding: a 4-wise binary fuse filter with fractional
// fingerprints (compact/math.h), for the memory a Bloom filter wastes.
//
// Format. The final byte is kCompactTag (70, 'F'); the byte before it says
// what the body is:
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
//   kCompactBodySmallBloom (2) or kCompactBodyFallbackBloom (3): a whole
//     cache-local Bloom filter (cache_local/bloom.h), then the body kind and
//     the tag. Small: the builder planned it, because for few keys (or none)
//     it is smaller than a fuse filter. Fallback: the fuse filter could not
//     be built (every seed failed); the Bloom filter at the same bits/key is
//     as accurate and larger.
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
#include <string>
#include <string_view>
#include <vector>

#include "absl/types/span.h"
#include "filter/builder_base.h"
#include "filter/cache_local/bloom.h"
#include "filter/compact/math.h"
#include "filter/compact/probes.h"
#include "filter/compact/kernels.h"
#include "filter/encoding_info.h"
#include "filter/compact/fuse_peeler.h"
#include "filter/hash_blocks.h"
#include "filter/reader_base.h"
#include "filter/tagged_bloom.h"

namespace sstfilter {

inline constexpr unsigned char kCompactTag = 'F';
inline constexpr unsigned char kCompactBodyFuse = 1;
inline constexpr unsigned char kCompactBodySmallBloom = kTaggedBloomSmall;
inline constexpr unsigned char kCompactBodyFallbackBloom = kTaggedBloomFallback;
inline constexpr unsigned char kCompactHashXxh3 = 2;
inline constexpr size_t kCompactFuseTrailerBytes = 18;
inline constexpr size_t kCompactBloomTrailerBytes = kTaggedBloomTrailerBytes;

// Whether filter carries this encoding's tag (its final byte) after a body
// kind; the rest is checked by CompactBloomBody and ParseCompactFuse.
inline bool IsCompactFilter(std::string_view filter) {
  return filter.size() >= kCompactBloomTrailerBytes &&
         static_cast<unsigned char>(filter.back()) == kCompactTag;
}

// The cache-local filter a compact filter's Bloom body is (the bytes before
// its 2-byte trailer; its own reader contract applies), or nullopt when
// filter is no compact filter with a Bloom body.
std::optional<std::string_view> CompactBloomBody(std::string_view filter);

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

// Collects key hashes, then writes one filter. Call order:
//   (AddKey | AddHash)* (FinishSize? FinishInto | Finish)
// Finish leaves the builder empty, ready for the next filter.
class CompactFilterBuilder : public BuilderBase<CompactFilterBuilder> {
 public:
  // REQUIRES: 0 < bits_per_key <= kMaxBitsPerKey.
  explicit CompactFilterBuilder(double bits_per_key, CompactBuildOptions options = {});
  // The next filter is written at bits_per_key; entries added are kept.
  void Retune(double bits_per_key);

  using Hash = uint64_t;
  static Hash HashKey(std::string_view key);

  void AddKey(std::string_view key) { AddHash(HashKey(key)); }
  // A hash equal to the previous one is dropped (HashBlocks::AddUnlessRepeat).
  // Other duplicates are removed when construction fails because of them.
  void AddHash(Hash h) {
    if (hashes_.AddUnlessRepeat(h)) planned_ = false;
  }
  size_t NumEntries() const { return hashes_.size(); }
  template <typename Visit>
  void ForEachHash(Visit&& visit) const {
    hashes_.ForEach(visit);
  }

  // Builds the filter (the expensive part) and returns its exact size:
  // FilterSize(distinct entries), or a fallback Bloom filter's size.
  size_t FinishSize();
  using BuilderBase::FinishInto;  // FinishInto(out): the FinishSize() bytes.

  // Other sizes for the filter FinishSize built, for
  // optimize_filters_for_memory (filter/memory_sizing.h); FinishSize first.
  // The largest size <= bytes FinishInto(out, size) writes, 0 if none: a
  // fuse filter at other fingerprint widths on its cells (FitFingerprints),
  // a Bloom body at another line count. FittingBuiltSize(FinishSize()) is
  // FinishSize().
  size_t FittingBuiltSize(size_t bytes);
  // The model FP rate of the filter written at a size FittingBuiltSize gave.
  double BuiltFpRate(size_t bytes);
  // Writes the filter at such a size and resets the builder.
  void FinishInto(char* out, size_t bytes);

  // Bytes of the filter for n distinct entries: the smaller of the fuse
  // filter (array + 18) and the cache-local Bloom filter (its size + 2).
  size_t FilterSize(size_t num_entries) const;
  // Largest n with FilterSize(n) <= bytes (0 if there is none).
  size_t MaxEntriesForSize(size_t bytes) const;
  // Whether n distinct entries get a fuse filter (else a Bloom filter).
  bool UsesFuse(size_t num_entries) const;

  // Filters that fell back to Bloom since construction (every seed failed,
  // or the temporary memory was over the limit or could not be allocated).
  uint64_t num_fallbacks() const { return num_fallbacks_; }
  // The seed index the last fuse filter was built with (0: the first seed
  // peeled); max_seeds after a fallback, 0 for a planned Bloom filter.
  int last_seeds_tried() const { return last_seeds_tried_; }
  // Most bytes held besides the output while building the last filter:
  // the hashes plus the peeler's cells.
  size_t last_temp_bytes() const { return last_temp_bytes_; }

 private:
  enum class Body { kFuse, kSmallBloom, kFallbackBloom };
  bool TryFuse(size_t num_keys);
  bool RemoveDuplicates();  // Whether any were removed.
  void KeepFirstOf(const std::vector<uint64_t>& repeated);
  void WriteBloom(char* out, size_t bytes, unsigned char body);
  void WriteFuse(char* out, size_t bytes);
  std::optional<FuseShape> FuseWidthsFor(size_t bytes) const;
  void Reset();

  CompactBuildOptions options_;
  HashBlocks hashes_;
  FusePeeler peeler_;
  // What FinishSize decided.
  bool planned_ = false;
  Body body_ = Body::kSmallBloom;
  FuseShape shape_;
  uint32_t seed_ = 0;
  size_t size_ = 0;
  uint64_t num_fallbacks_ = 0;
  int last_seeds_tried_ = 0;
  size_t last_temp_bytes_ = 0;
};

// Queries one filter. Parses the trailer once; the filter bytes must outlive
// the reader. Safe to use from several threads at once.
class CompactFilterReader : public ReaderBase {
 public:
  // `simd` picks the batched query kernel (compact/kernels.h) and the Bloom
  // body's kernels; every level gives the same answers.
  explicit CompactFilterReader(std::string_view filter, SimdLevel simd = BestSimdLevel());

  static bool Recognises(std::string_view filter) { return IsCompactFilter(filter); }

  // One query of a filter's bytes with no reader built (OneShotQuery,
  // filter_policy.h): MayMatch's answer; a Bloom body is asked through
  // CacheLocalBloomReader::MayMatchOnce at the kernel level the context
  // resolved once. No allocation.
  struct OnceContext {
    explicit OnceContext(SimdLevel simd = BestSimdLevel()) : bloom(simd) {}
    CacheLocalBloomReader::OnceContext bloom;
  };
  static bool MayMatchOnce(std::string_view filter, std::string_view key,
                           const OnceContext& context);

  bool MayMatch(std::string_view key) const;
  bool HashMayMatch(uint64_t h) const;
  // Answers as MayMatch does; out holds keys.size() entries. Hashes a group
  // of keys and prefetches their cells before probing any.
  void MayMatchBatch(absl::Span<const std::string_view> keys, bool* out) const {
    MayMatchEach(keys.size(), [keys](size_t i) { return keys[i]; }, out);
  }
  // The same for keys held some other way: key i is key_at(i), a
  // std::string_view (RocksDB's MultiGet, read in place; see
  // CacheLocalBloomReader::MayMatchEach).
  template <typename KeyAt>
  void MayMatchEach(size_t n, KeyAt key_at, bool* out) const;

  // What the body is (kCompactBody*), 0 when the filter is not understood.
  unsigned char body() const { return body_; }
  const FuseShape& shape() const { return shape_; }  // Set for fuse bodies.

 private:
  static bool FuseMayMatch(const char* array, uint64_t h, uint64_t multiplier,
                           const compact::FuseParams& params) {
    return compact::FuseMayMatch(array, h, compact::CellsOf(h, multiplier, params), params);
  }

  unsigned char body_ = 0;
  FuseShape shape_;
  compact::FuseParams params_;
  uint64_t multiplier_ = 0;  // SeedMultiplier(seed).
  CompactQueryKernel group_kernel_ = nullptr;  // None: the scalar loop.
  CacheLocalBloomReader bloom_;
};

template <typename KeyAt>
void CompactFilterReader::MayMatchEach(size_t n, KeyAt key_at, bool* out) const {
  if (body_ != kCompactBodyFuse) {
    if (body_ != 0) return bloom_.MayMatchEach(n, key_at, out);
    return FillFixedAnswer(n, out);
  }
  // Groups of up to 32 keys. With a kernel and at least 16 keys, hash the
  // group and hand it over (compact/kernels.h). Otherwise chunks of 8: hash,
  // locate and prefetch key by key, then probe, so the cache misses of a big
  // filter overlap the next keys' hashing.
  constexpr size_t kChunk = 8;  // Chosen by measurement: docs/results.md#compact-tuning.
  uint64_t hashes[kCompactSimdMaxGroup];
  compact::Probe probes[kChunk];
  for (size_t group = 0; group < n; group += kCompactSimdMaxGroup) {
    const size_t group_size = std::min(kCompactSimdMaxGroup, n - group);
    if (group_kernel_ != nullptr && group_size >= kCompactSimdMinGroup) {
      for (size_t i = 0; i < group_size; ++i) hashes[i] = KeyHash64(key_at(group + i));
      group_kernel_(hashes, group_size, array_, multiplier_, params_, out + group);
      continue;
    }
    for (size_t base = group; base < group + group_size; base += kChunk) {
      const size_t chunk = std::min(kChunk, group + group_size - base);
      for (size_t i = 0; i < chunk; ++i) {
        hashes[i] = KeyHash64(key_at(base + i));
        probes[i] = compact::ProbeOf(compact::CellsOf(hashes[i], multiplier_, params_), params_);
        compact::PrefetchProbe(array_, probes[i]);
      }
      for (size_t i = 0; i < chunk; ++i) {
        out[base + i] = compact::ProbeMayMatch(array_, hashes[i], probes[i]);
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
