// The banded encoding: a bumped Ribbon filter with 64-slot bands stored
// block-interleaved (banded/probes.h): a Bloom filter's accuracy in fewer
// bits (banded/math.h sizes it), and one random memory access per query (a
// key reads one block and usually the adjacent next one).
//
// Format. The final byte is kBandedTag (66, 'B'); the byte before it says
// what the body is:
//   kBandedBodyLayers (1): the layers, then a trailer of 4 L + 9 bytes
//     layers        layer 0's blocks, then layer 1's, ... (probes.h):
//                   layer 0's first narrow_blocks blocks have r - 1
//                   columns, every other block r
//     4 L bytes     blocks of each layer, little-endian 32-bit, each >= 1
//     4 bytes       narrow_blocks (<= layer 0's blocks)
//     1 byte        L, the layers, 1..4
//     1 byte        r, the columns, 1..16
//     1 byte        hash kind: 1 = XXH3 64-bit, seed 0 (key_hash64.h)
//     1 byte        body kind, 1
//     1 byte        tag
//   kBandedBodySmallBloom (2) or kBandedBodyFallbackBloom (3): a whole
//     cache-local Bloom filter (cache_local/bloom.h), then the body kind and
//     the tag. Small: the builder planned it, because for few keys (or none)
//     it is smaller. Fallback: keys were bumped from every layer (or the
//     temporary memory was over its limit); the Bloom filter at the same
//     bits/key is as accurate and larger.
//
// Reader contract (fail open, never a false negative, never out of bounds):
// any other final byte, body kind, hash kind, L or r, a layer of 0 blocks,
// narrow_blocks above layer 0's blocks, or layers' bytes other than their
// blocks at their widths matches everything; a threshold code past the
// table bumps every key of its block, and a key bumped from the last layer
// may match. A Bloom body is read by CacheLocalBloomReader with its own
// contract.
#ifndef SSTFILTER_FILTER_BANDED_FILTER_H_
#define SSTFILTER_FILTER_BANDED_FILTER_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/types/span.h"
#include "filter/banded/kernels.h"
#include "filter/banded/math.h"
#include "filter/banded/probes.h"
#include "filter/banded/query.h"
#include "filter/banded/solver.h"
#include "filter/builder_base.h"
#include "filter/cache_local/bloom.h"
#include "filter/encoding_info.h"
#include "filter/hash_blocks.h"
#include "filter/key_hash64.h"
#include "filter/reader_base.h"
#include "filter/tagged_bloom.h"

namespace sstfilter {

inline constexpr unsigned char kBandedTag = 'B';
inline constexpr unsigned char kBandedBodyLayers = 1;
inline constexpr unsigned char kBandedBodySmallBloom = kTaggedBloomSmall;
inline constexpr unsigned char kBandedBodyFallbackBloom = kTaggedBloomFallback;
inline constexpr unsigned char kBandedHashXxh3 = 1;
inline constexpr size_t kBandedBloomTrailerBytes = kTaggedBloomTrailerBytes;
// A query reads two adjacent blocks of a layer: num_probes() reports 2.
inline constexpr int kBandedBlocksPerQuery = 2;

// Trailer bytes of a layers body with `layers` layers.
inline constexpr size_t BandedTrailerBytes(uint32_t layers) { return 4 * size_t{layers} + 9; }

// Whether filter carries this encoding's tag (its final byte) after a body
// kind; the rest is checked by BandedBloomBody and ParseBandedLayers.
inline bool IsBandedFilter(std::string_view filter) {
  return filter.size() >= kBandedBloomTrailerBytes &&
         static_cast<unsigned char>(filter.back()) == kBandedTag;
}

// The cache-local filter a banded filter's Bloom body is (the bytes before
// its 2-byte trailer), or nullopt when filter is no banded filter with a
// Bloom body.
std::optional<std::string_view> BandedBloomBody(std::string_view filter);

// What a layers body's probes need.
struct BandedLayout {
  banded::Layers layers;
  BandedShape shape;
};

// The format's one parse of a layers body (the reader contract above).
// Anything else may match; the state is never kMatchNothing.
ParsedFilter<BandedLayout> ParseBandedLayers(std::string_view filter);

// Construction settings; the defaults are what policies use.
struct BandedBuildOptions {
  // Layers before falling back to a Bloom filter (1..kBandedMaxLayers).
  // Tests set 1 to force the fallback.
  uint32_t max_layers = kBandedMaxLayers;
  // Blocks of layer 1; 0: planned from n (BandedSecondLayerBlocks). Tests
  // set 1 to force the layers beyond the plan.
  uint64_t second_layer_blocks = 0;
  // Most temporary memory one construction may take (BandedBuildTempBytes);
  // a filter that would need more is written as a Bloom filter (a
  // fallback).
  size_t max_temp_bytes = size_t{1} << 30;
};

// Bytes held while building the layers of `shape` for n keys: the
// builder's hashes, one section's sorted keys and rows (solver.h), and the
// solution.
size_t BandedBuildTempBytes(size_t num_keys, const BandedShape& shape);

// Collects key hashes, then writes one filter. Call order:
//   (AddKey | AddHash)* (FinishSize? FinishInto | Finish)
// Finish leaves the builder empty, ready for the next filter.
class BandedFilterBuilder : public BuilderBase<BandedFilterBuilder> {
 public:
  // REQUIRES: 0 < bits_per_key <= kMaxBitsPerKey.
  explicit BandedFilterBuilder(double bits_per_key, BandedBuildOptions options = {});
  // The next filter is written at bits_per_key; entries added are kept.
  void Retune(double bits_per_key);

  using Hash = uint64_t;
  static Hash HashKey(std::string_view key) { return KeyHash64(key); }

  void AddKey(std::string_view key) { AddHash(HashKey(key)); }
  // A hash equal to the previous one is dropped (HashBlocks::AddUnlessRepeat);
  // other duplicates cost a slot each and never a failure (equal equations
  // agree).
  void AddHash(Hash h) {
    if (hashes_.AddUnlessRepeat(h)) planned_ = false;
  }
  size_t NumEntries() const { return hashes_.size(); }
  template <typename Visit>
  void ForEachHash(Visit&& visit) const {
    hashes_.ForEach(visit);
  }

  // Builds the filter (the expensive part) and returns its exact size:
  // FilterSize(entries), a few blocks more when extra layers were needed,
  // or a fallback Bloom filter's size.
  size_t FinishSize();
  using BuilderBase::FinishInto;  // FinishInto(out): the FinishSize() bytes.

  // Other sizes for the filter FinishSize built, for
  // optimize_filters_for_memory (filter/memory_sizing.h); FinishSize first.
  // The largest size <= bytes FinishInto(out, size) writes, 0 if none: the
  // layers at other widths (FitBandedWidths; up to one column more than
  // planned, which the layers are solved for), a Bloom body at another line
  // count.
  size_t FittingBuiltSize(size_t bytes);
  // The model FP rate of the filter written at a size FittingBuiltSize gave.
  double BuiltFpRate(size_t bytes);
  // Writes the filter at such a size and resets the builder.
  void FinishInto(char* out, size_t bytes);

  // Bytes of the filter for n entries as planned: the smaller of the two
  // planned layers (+ trailer) and the cache-local Bloom filter (+ 2).
  size_t FilterSize(size_t num_entries) const;
  // Largest n with FilterSize(n) <= bytes (0 if there is none).
  size_t MaxEntriesForSize(size_t bytes) const;
  // Whether n entries get layers (else a Bloom filter).
  bool UsesLayers(size_t num_entries) const;

  // Filters that fell back to Bloom since construction.
  uint64_t num_fallbacks() const { return num_fallbacks_; }
  // Layers of the last layered filter built (kBandedPlannedLayers unless
  // keys were bumped from layer 1).
  uint32_t last_num_layers() const { return shape_.num_layers; }
  // Most bytes held besides the output while building the last filter.
  size_t last_temp_bytes() const { return last_temp_bytes_; }

 private:
  enum class Body { kLayers, kSmallBloom, kFallbackBloom };
  bool SolveLayers();
  void WriteBloom(char* out, size_t bytes, unsigned char body);
  void WriteLayers(char* out, size_t bytes);
  std::optional<BandedWidths> WidthsFor(size_t bytes) const;
  void Reset();

  BandedBuildOptions options_;
  HashBlocks hashes_;
  // What FinishSize decided.
  bool planned_ = false;
  Body body_ = Body::kSmallBloom;
  BandedShape shape_;
  std::vector<banded::SolvedLayer> solved_;
  size_t size_ = 0;
  uint64_t num_fallbacks_ = 0;
  size_t last_temp_bytes_ = 0;
};

// Queries one filter. Parses the trailer once; the filter bytes must outlive
// the reader. Safe to use from several threads at once.
class BandedFilterReader : public ReaderBase {
 public:
  // `simd` picks the query kernels (banded/kernels.h) and the Bloom body's
  // kernels; every level gives the same answers.
  explicit BandedFilterReader(std::string_view filter, SimdLevel simd = BestSimdLevel());

  static bool Recognises(std::string_view filter) { return IsBandedFilter(filter); }

  // One query of a filter's bytes with no reader built (OneShotQuery,
  // filter_policy.h): MayMatch's answer at the kernel the context resolved
  // once. No allocation.
  struct OnceContext {
    explicit OnceContext(SimdLevel simd = BestSimdLevel())
        : kernels(GetBandedKernels(ClampSimdLevel(simd))), bloom(simd) {}
    BandedKernels kernels;
    CacheLocalBloomReader::OnceContext bloom;
  };
  static bool MayMatchOnce(std::string_view filter, std::string_view key,
                           const OnceContext& context);

  bool MayMatch(std::string_view key) const { return HashMayMatch(KeyHash64(key)); }
  bool HashMayMatch(uint64_t h) const;
  // Answers as MayMatch does; out holds keys.size() entries. Hashes a chunk
  // of keys and prefetches their blocks before probing any.
  void MayMatchBatch(absl::Span<const std::string_view> keys, bool* out) const {
    MayMatchEach(keys.size(), [keys](size_t i) { return keys[i]; }, out);
  }
  // The same for keys held some other way: key i is key_at(i), a
  // std::string_view.
  template <typename KeyAt>
  void MayMatchEach(size_t n, KeyAt key_at, bool* out) const;

  // What the body is (kBandedBody*), 0 when the filter is not understood.
  unsigned char body() const { return body_; }
  const BandedShape& shape() const { return layout_.shape; }  // Set for layers.

 private:
  unsigned char body_ = 0;
  BandedLayout layout_;
  BandedKernels kernels_;
  CacheLocalBloomReader bloom_;
};


template <typename KeyAt>
void BandedFilterReader::MayMatchEach(size_t n, KeyAt key_at, bool* out) const {
  if (body_ != kBandedBodyLayers) {
    if (body_ != 0) return bloom_.MayMatchEach(n, key_at, out);
    return FillFixedAnswer(n, out);
  }
  // Groups of up to 32: hash them all, then the kernel locates and
  // prefetches every key's lines before it reads any.
  uint64_t hashes[banded::kMaxGroup];
  for (size_t base = 0; base < n; base += banded::kMaxGroup) {
    const size_t group = std::min(banded::kMaxGroup, n - base);
    for (size_t i = 0; i < group; ++i) hashes[i] = KeyHash64(key_at(base + i));
    kernels_.may_match_hashes(layout_.layers, hashes, group, out + base);
  }
}

// Defined in banded/encoding.cc.
extern const EncodingInfo kBandedEncodingInfo;
using BandedEncoding = Encoding<BandedFilterBuilder, BandedFilterReader, kBandedEncodingInfo,
                                EncodingId::kBanded>;

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BANDED_FILTER_H_
