#include "filter/banded/filter.h"

#include <cassert>

#include "absl/base/attributes.h"
#include "filter/structured/fixed32.h"

namespace sstfilter {

namespace bd = banded;

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
    : StructuredBuilder(bits_per_key, kBandedBlocksPerQuery), options_(options) {
  assert(options_.max_layers >= 1 && options_.max_layers <= kBandedMaxLayers);
}

// Layer 0 at its planned size, then each later layer sized for the keys
// the one before bumped (none: no more layers). False when keys remain
// bumped after options_.max_layers layers, or the memory is over the limit.
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
    if (layer > 0) {
      if (keys.empty()) break;
      if (layer > 1 || options_.second_layer_blocks == 0) {
        shape_.blocks[layer] = BandedExtraLayerBlocks(keys.size());
      }
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
    if (layer == 0) layer0_bumped_ = keys.size();
    size_t held = hashes_.AllocatedBytes() + bumped_before.AllocatedBytes() + temp +
                  keys.capacity() * sizeof(uint64_t);
    for (const bd::SolvedLayer& s : solved_) held += s.AllocatedBytes();
    last_temp_bytes_ = std::max(last_temp_bytes_, held);
  }
  return keys.empty();
}

// The built layers at the widths that fill `bytes` (FitBandedWidths, up to
// the one column more they were solved for): the layers at other sizes
// (which RocksDB may ask about, and optimize_filters_for_memory writes).
std::optional<BandedShape> BandedFilterBuilder::FitBody(const BandedShape& built, size_t bytes) {
  const size_t trailer = BandedTrailerBytes(built.num_layers);
  if (bytes <= trailer) return std::nullopt;
  BandedShape s = built;
  s.widths =
      FitBandedWidths(built, std::min(built.widths.columns + 1, bd::kMaxColumns), bytes - trailer);
  if (s.widths.columns == 0) return std::nullopt;
  return s;
}

void BandedFilterBuilder::WriteBody(const BandedShape& s, char* out) {
  auto* p = reinterpret_cast<uint8_t*>(out);
  for (uint32_t i = 0; i < s.num_layers; ++i) {
    const uint64_t narrow = i == 0 ? s.widths.narrow_blocks : 0;
    bd::WriteLayer(solved_[i], s.widths.columns, narrow, p);
    p += bd::LayerBytes(s.blocks[i], s.widths.columns, narrow);
  }
  char* t = reinterpret_cast<char*>(p);
  for (uint32_t i = 0; i < s.num_layers; ++i, t += 4) {
    PutFixed32(t, static_cast<uint32_t>(s.blocks[i]));
  }
  PutFixed32(t, static_cast<uint32_t>(s.widths.narrow_blocks));
  t[4] = static_cast<char>(s.num_layers);
  t[5] = static_cast<char>(s.widths.columns);
  t[6] = static_cast<char>(kBandedHashXxh3);
}

namespace {

// ParseBandedLayers, inlined where it is called in this file (into
// MayMatchOnce, a call and the layout through memory cost a one-shot query
// more than the parse).
ABSL_ATTRIBUTE_ALWAYS_INLINE inline ParsedFilter<BandedLayout> ParseLayers(
    std::string_view filter) {
  if (!HasStructuredBody(filter, kBandedTag, BandedTrailerBytes(1))) return {};
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

ParsedFilter<BandedLayout> ParseBandedLayers(std::string_view filter) {
  return ParseLayers(filter);
}

bool BandedFilterReader::MayMatchOnce(std::string_view filter, std::string_view key,
                                      const OnceContext& context) {
  return OnceMayMatch<ParseLayers>(filter, key, context.bloom,
                                   [&context](const BandedLayout& l, uint64_t h) {
                                     return context.kernels.may_match(l.layers, h);
                                   });
}

}  // namespace sstfilter
