#include "filter/banded/filter.h"

#include <cassert>
#include <new>

#include "absl/base/attributes.h"
#include "filter/bloom_math.h"

namespace sstfilter {

namespace bd = banded;

namespace {

void PutFixed32(char* out, uint64_t v) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<char>(v >> (8 * i));
}
uint32_t GetFixed32(const unsigned char* in) {
  return uint32_t{in[0]} | uint32_t{in[1]} << 8 | uint32_t{in[2]} << 16 | uint32_t{in[3]} << 24;
}

size_t LayersSize(const BandedShape& shape) {
  return static_cast<size_t>(shape.LayerBytes()) + BandedTrailerBytes(shape.num_layers);
}

}  // namespace

size_t BandedBuildTempBytes(size_t num_keys, const BandedShape& shape) {
  const size_t hash_blocks = (num_keys + HashBlocks::kBlockHashes - 1) / HashBlocks::kBlockHashes;
  const uint64_t section_blocks = std::min(shape.blocks[0], bd::kSectionBlocks);
  const uint64_t section_slots = section_blocks * bd::kSlotsPerBlock;
  const uint32_t columns = std::min(shape.widths.columns + 1, bd::kMaxColumns);
  // The builder's hashes; one section's sorted hashes (about one a slot)
  // and per slot a key count, a row and its right-hand sides; the
  // solution's words at one column more than planned.
  return hash_blocks * HashBlocks::kBlockHashes * sizeof(uint64_t) +
         static_cast<size_t>(section_slots) *
             (2 * sizeof(uint64_t) + sizeof(uint16_t) + sizeof(uint32_t)) +
         static_cast<size_t>(shape.blocks[0] + shape.blocks[1]) * (8 * columns + 1);
}

BandedFilterBuilder::BandedFilterBuilder(double bits_per_key, BandedBuildOptions options)
    : BuilderBase(bits_per_key, kBandedBlocksPerQuery), options_(options) {
  assert(options_.max_layers >= 1 && options_.max_layers <= kBandedMaxLayers);
}

void BandedFilterBuilder::Retune(double bits_per_key) {
  SetSettings(bits_per_key, kBandedBlocksPerQuery);
  planned_ = false;
}

bool BandedFilterBuilder::UsesLayers(size_t n) const {
  return n > 0 && n <= kBandedMaxKeys &&
         LayersSize(BandedPlan(n, bits_per_key_)) < TaggedBloomSize(n, bits_per_key_);
}

size_t BandedFilterBuilder::FilterSize(size_t n) const {
  return UsesLayers(n) ? LayersSize(BandedPlan(n, bits_per_key_))
                       : TaggedBloomSize(n, bits_per_key_);
}

size_t BandedFilterBuilder::MaxEntriesForSize(size_t bytes) const {
  if (bytes < FilterSize(0)) return 0;
  // FilterSize grows with n (both sizes do), tested in banded_filter_test.
  return LargestFittingEntries([&](size_t n) { return FilterSize(n) <= bytes; });
}

// Layer 0 and the planned layer 1 at their planned sizes, then layers sized
// for what is still bumped. False when keys remain bumped after
// options_.max_layers layers, or the memory is over the limit.
bool BandedFilterBuilder::SolveLayers() {
  const size_t n = hashes_.size();
  shape_ = BandedPlan(n, bits_per_key_);
  if (options_.second_layer_blocks != 0) shape_.blocks[1] = options_.second_layer_blocks;
  if (BandedBuildTempBytes(n, shape_) > options_.max_temp_bytes) return false;
  std::vector<uint64_t> keys;  // Bumped from the last layer solved.
  // One column more than planned, so that optimize_filters_for_memory can
  // also write the filter larger (FittingBuiltSize).
  const uint32_t columns = std::min(shape_.widths.columns + 1, bd::kMaxColumns);
  for (uint32_t layer = 0; layer < options_.max_layers; ++layer) {
    if (layer >= kBandedPlannedLayers) {
      if (keys.empty()) break;
      shape_.blocks[layer] = BandedExtraLayerBlocks(keys.size());
    }
    shape_.num_layers = layer + 1;
    // Layer 0 takes the builder's hashes (reordered in place), later ones
    // the keys bumped from the one before.
    HashBlocks bumped_before;
    for (uint64_t h : keys) bumped_before.Add(h);
    keys.clear();
    keys.shrink_to_fit();
    size_t temp = 0;
    solved_.push_back(bd::SolveLayer(layer == 0 ? &hashes_ : &bumped_before, layer,
                                     shape_.blocks[layer], columns, &keys, &temp));
    size_t held = hashes_.AllocatedBytes() + bumped_before.AllocatedBytes() + temp +
                  keys.capacity() * sizeof(uint64_t);
    for (const bd::SolvedLayer& s : solved_) held += s.AllocatedBytes();
    last_temp_bytes_ = std::max(last_temp_bytes_, held);
  }
  return keys.empty();
}

size_t BandedFilterBuilder::FinishSize() {
  if (planned_) return size_;
  last_temp_bytes_ = hashes_.AllocatedBytes();
  solved_.clear();
  if (!UsesLayers(hashes_.size())) {
    body_ = Body::kSmallBloom;
  } else {
    bool solved = false;
    try {
      solved = SolveLayers();
    } catch (const std::bad_alloc&) {
      solved = false;
    }
    body_ = solved ? Body::kLayers : Body::kFallbackBloom;
    if (!solved) solved_.clear();
  }
  size_ = body_ == Body::kLayers ? LayersSize(shape_)
                                 : TaggedBloomSize(hashes_.size(), bits_per_key_);
  planned_ = true;
  return size_;
}

std::optional<BandedWidths> BandedFilterBuilder::WidthsFor(size_t bytes) const {
  const size_t trailer = BandedTrailerBytes(shape_.num_layers);
  if (bytes <= trailer) return std::nullopt;
  const BandedWidths w = FitBandedWidths(shape_, solved_[0].columns, bytes - trailer);
  if (w.columns == 0) return std::nullopt;
  return w;
}

size_t BandedFilterBuilder::FittingBuiltSize(size_t bytes) {
  FinishSize();
  if (body_ == Body::kLayers) {
    const std::optional<BandedWidths> w = WidthsFor(bytes);
    if (!w) return 0;
    BandedShape s = shape_;
    s.widths = *w;
    return LayersSize(s);
  }
  return FittingTaggedBloomSize(hashes_.size(), bits_per_key_, bytes);
}

double BandedFilterBuilder::BuiltFpRate(size_t bytes) {
  FinishSize();
  if (body_ == Body::kLayers) {
    const std::optional<BandedWidths> w = WidthsFor(bytes);
    if (!w) return 1.0;
    BandedShape s = shape_;
    s.widths = *w;
    return s.FpRate();
  }
  return TaggedBloomFpRate(hashes_.size(), bytes, bits_per_key_);
}

void BandedFilterBuilder::WriteBloom(char* out, size_t bytes, unsigned char body) {
  last_temp_bytes_ = std::max(last_temp_bytes_, 2 * hashes_.AllocatedBytes());
  WriteTaggedBloom(hashes_, bits_per_key_, body, kBandedTag, out, bytes);
}

void BandedFilterBuilder::WriteLayers(char* out, size_t bytes) {
  BandedShape s = shape_;
  s.widths = *WidthsFor(bytes);
  auto* p = reinterpret_cast<uint8_t*>(out);
  for (uint32_t i = 0; i < s.num_layers; ++i) {
    const uint64_t narrow = i == 0 ? s.widths.narrow_blocks : 0;
    bd::WriteLayer(solved_[i], s.widths.columns, narrow, p);
    p += bd::LayerBytes(s.blocks[i], s.widths.columns, narrow);
  }
  char* t = reinterpret_cast<char*>(p);
  assert(t + BandedTrailerBytes(s.num_layers) == out + bytes);
  for (uint32_t i = 0; i < s.num_layers; ++i, t += 4) PutFixed32(t, s.blocks[i]);
  PutFixed32(t, s.widths.narrow_blocks);
  t[4] = static_cast<char>(s.num_layers);
  t[5] = static_cast<char>(s.widths.columns);
  t[6] = static_cast<char>(kBandedHashXxh3);
  t[7] = static_cast<char>(kBandedBodyLayers);
  t[8] = static_cast<char>(kBandedTag);
}

void BandedFilterBuilder::FinishInto(char* out, size_t bytes) {
  FinishSize();
  assert(bytes != 0 && FittingBuiltSize(bytes) == bytes);
  switch (body_) {
    case Body::kSmallBloom:
      WriteBloom(out, bytes, kBandedBodySmallBloom);
      break;
    case Body::kFallbackBloom:
      ++num_fallbacks_;
      WriteBloom(out, bytes, kBandedBodyFallbackBloom);
      break;
    case Body::kLayers:
      WriteLayers(out, bytes);
      break;
  }
  Reset();
}

void BandedFilterBuilder::Reset() {
  hashes_.Release();
  solved_.clear();
  solved_.shrink_to_fit();
  planned_ = false;
}

namespace {

// BandedBloomBody and ParseBandedLayers, inlined where they are called in
// this file (into MayMatchOnce, a call and the layout through memory cost
// a one-shot query more than the parse).
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<std::string_view> BloomBody(
    std::string_view filter) {
  return TaggedBloomBody(filter, kBandedTag);
}

ABSL_ATTRIBUTE_ALWAYS_INLINE inline ParsedFilter<BandedLayout> ParseLayers(
    std::string_view filter) {
  if (!IsBandedFilter(filter) ||
      static_cast<unsigned char>(filter[filter.size() - 2]) != kBandedBodyLayers ||
      filter.size() < BandedTrailerBytes(1)) {
    return {};
  }
  const auto* end = reinterpret_cast<const unsigned char*>(filter.data() + filter.size());
  BandedShape s;
  s.num_layers = end[-5];
  s.widths.columns = end[-4];
  if (s.num_layers < 1 || s.num_layers > kBandedMaxLayers || s.widths.columns < 1 ||
      s.widths.columns > bd::kMaxColumns || end[-3] != kBandedHashXxh3 ||
      filter.size() < BandedTrailerBytes(s.num_layers)) {
    return {};
  }
  const unsigned char* t = end - BandedTrailerBytes(s.num_layers);
  for (uint32_t i = 0; i < s.num_layers; ++i) {
    s.blocks[i] = GetFixed32(t + 4 * i);
    if (s.blocks[i] == 0) return {};
  }
  s.widths.narrow_blocks = GetFixed32(t + 4 * s.num_layers);
  if (s.widths.narrow_blocks > s.blocks[0]) return {};
  // At most 4 layers of 2^32 blocks of 129 bytes: no overflow in 64 bits.
  if (s.LayerBytes() != filter.size() - BandedTrailerBytes(s.num_layers)) return {};
  ParsedFilter<BandedLayout> parsed{FilterState::kProbe, {}};
  BandedLayout& l = parsed.layout;
  l.shape = s;
  l.layers.num_layers = s.num_layers;
  const auto* p = reinterpret_cast<const uint8_t*>(filter.data());
  for (uint32_t i = 0; i < s.num_layers; ++i) {
    const uint64_t narrow = i == 0 ? s.widths.narrow_blocks : 0;
    l.layers.layers[i] = {p, s.blocks[i], narrow, s.widths.columns};
    p += bd::LayerBytes(s.blocks[i], s.widths.columns, narrow);
  }
  return parsed;
}

}  // namespace

std::optional<std::string_view> BandedBloomBody(std::string_view filter) {
  return BloomBody(filter);
}

ParsedFilter<BandedLayout> ParseBandedLayers(std::string_view filter) {
  return ParseLayers(filter);
}

BandedFilterReader::BandedFilterReader(std::string_view filter, SimdLevel simd)
    : kernels_(GetBandedKernels(ClampSimdLevel(simd))),
      bloom_(BandedBloomBody(filter).value_or(std::string_view{}), simd) {
  // state_ starts as kMatchEverything: a filter neither body takes fails open.
  if (BandedBloomBody(filter)) {
    body_ = static_cast<unsigned char>(filter[filter.size() - 2]);
    state_ = bloom_.state();
    num_probes_ = bloom_.num_probes();
    return;
  }
  const ParsedFilter<BandedLayout> parsed = ParseBandedLayers(filter);
  if (parsed.state != FilterState::kProbe) return;
  body_ = kBandedBodyLayers;
  state_ = FilterState::kProbe;
  num_probes_ = kBandedBlocksPerQuery;
  layout_ = parsed.layout;
  array_ = filter.data();
}

bool BandedFilterReader::HashMayMatch(uint64_t h) const {
  if (body_ == kBandedBodyLayers) return kernels_.may_match(layout_.layers, h);
  if (body_ != 0) return bloom_.HashMayMatch(h);
  return FixedAnswer();
}

bool BandedFilterReader::MayMatchOnce(std::string_view filter, std::string_view key,
                                      const OnceContext& context) {
  if (const std::optional<std::string_view> bloom = BloomBody(filter)) {
    return CacheLocalBloomReader::MayMatchOnce(*bloom, key, context.bloom);
  }
  return ParseLayers(filter).Answer([key, &context](const BandedLayout& l) {
    return context.kernels.may_match(l.layers, KeyHash64(key));
  });
}

}  // namespace sstfilter
