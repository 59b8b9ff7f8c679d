// The banded encoding: a bumped Ribbon filter with 64-slot bands stored
// block-interleaved (banded/probes.h): a Bloom filter's accuracy in fewer
// bits (banded/math.h sizes it), and one random memory access per query (a
// key reads one block and usually the adjacent next one).
//
// Format: banded/format.h. The builder writes a small Bloom body where it
// is the smaller (few keys, or none), and a fallback one where keys were
// bumped from every layer (or the temporary memory was over its limit or
// could not be allocated).
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
#include <string_view>
#include <vector>

#include "filter/banded/format.h"
#include "filter/banded/kernels.h"
#include "filter/banded/math.h"
#include "filter/banded/probes.h"
#include "filter/banded/query.h"
#include "filter/banded/solver.h"
#include "filter/cache_local/bloom.h"
#include "filter/encoding_info.h"
#include "filter/key_hash64.h"
#include "filter/reader_base.h"
#include "filter/structured/builder.h"
#include "filter/structured/frame.h"
#include "filter/structured/reader.h"

namespace sstfilter {

// A query reads two adjacent blocks of a layer: num_probes() reports 2.
inline constexpr int kBandedBlocksPerQuery = 2;

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
  // Blocks of layer 1; 0: sized for the keys layer 0 bumped. Tests set 1
  // to force the later layers.
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

// The structured frame's builder (structured/builder.h) with a layers body:
// FilterSize(n) is the smaller of the two planned layers (+ trailer) and the
// Bloom body; FinishSize differs from it by the layers built for the keys
// bumped (a few blocks); FittingBuiltSize writes the layers at other widths
// (FitBandedWidths; up to one column more than planned, which the layers
// are solved for). Repeated hashes cost a slot each and never a failure
// (equal equations agree).
class BandedFilterBuilder : public StructuredBuilder<BandedFilterBuilder, BandedShape, kBandedTag> {
 public:
  // REQUIRES: 0 < bits_per_key <= kMaxBitsPerKey.
  explicit BandedFilterBuilder(double bits_per_key, BandedBuildOptions options = {});

  // Whether n entries get layers (else a Bloom filter).
  bool UsesLayers(size_t num_entries) const { return PlannedShape(num_entries).has_value(); }
  // Layers of the last layered filter built: 1 where layer 0 bumped no
  // key, 2 unless layer 1 bumped keys too.
  uint32_t last_num_layers() const { return shape_.num_layers; }
  // The keys layer 0 of the last layered filter built bumped.
  size_t last_layer0_bumped() const { return layer0_bumped_; }

 private:
  friend StructuredBuilder;
  // The frame's hooks (structured/builder.h).
  std::optional<BandedShape> PlanBody(size_t num_entries) const {
    if (num_entries == 0 || num_entries > kBandedMaxKeys) return std::nullopt;
    return BandedPlan(num_entries, bits_per_key_);
  }
  static size_t BodyFilterSize(const BandedShape& s) {
    return static_cast<size_t>(s.LayerBytes()) + BandedTrailerBytes(s.num_layers);
  }
  static std::optional<BandedShape> FitBody(const BandedShape& built, size_t bytes);
  bool BuildBody() {
    solved_.clear();
    return SolveLayers();
  }
  bool SolveLayers();
  void WriteBody(const BandedShape& fitted, char* out);
  void ReleaseBody() {
    solved_.clear();
    solved_.shrink_to_fit();
  }

  BandedBuildOptions options_;
  std::vector<banded::SolvedLayer> solved_;  // Of the built layers.
  size_t layer0_bumped_ = 0;
};

// The structured frame's reader (structured/reader.h) with a layers body.
class BandedFilterReader : public StructuredReader<BandedFilterReader, BandedLayout, kBandedTag> {
 public:
  // `simd` picks the query kernels (banded/kernels.h) and the Bloom body's
  // kernels; every level gives the same answers.
  explicit BandedFilterReader(std::string_view filter, SimdLevel simd = BestSimdLevel())
      : StructuredReader(filter, simd, ParseBandedLayers, kBandedBlocksPerQuery),
        kernels_(GetBandedKernels(ClampSimdLevel(simd))) {}

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

 private:
  friend StructuredReader;
  bool BodyMayMatch(uint64_t h) const { return kernels_.may_match(layout_.layers, h); }
  // Groups of up to 32: hash them all, then the kernel locates and
  // prefetches every key's lines before it reads any.
  template <typename KeyAt>
  void BodyMayMatchEach(size_t n, KeyAt key_at, bool* out) const {
    uint64_t hashes[banded::kMaxGroup];
    for (size_t base = 0; base < n; base += banded::kMaxGroup) {
      const size_t group = std::min(banded::kMaxGroup, n - base);
      for (size_t i = 0; i < group; ++i) hashes[i] = KeyHash64(key_at(base + i));
      kernels_.may_match_hashes(layout_.layers, hashes, group, out + base);
    }
  }

  BandedKernels kernels_;
};

// Defined in banded/encoding.cc.
extern const EncodingInfo kBandedEncodingInfo;
using BandedEncoding = Encoding<BandedFilterBuilder, BandedFilterReader, kBandedEncodingInfo,
                                EncodingId::kBanded>;

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BANDED_FILTER_H_
