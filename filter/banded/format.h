// Where every byte of a banded filter is: the frame, the trailer, the
// layers and their blocks. What the bytes mean to a query is probe math
// (banded/probes.h); the reader's parse of them is ParseBandedLayers
// (banded/filter.h, with the reader contract).
//
// A structured encoding's frame (structured/frame.h): the final byte is
// kBandedTag (66, 'B'); the byte before it says what the body is:
//   kBandedBodyLayers (1): the layers, then a trailer of
//   BandedTrailerBytes(L) = 4 L + 9 bytes
//     layers        layer 0's blocks, then layer 1's, ... (a Layer each):
//                   layer 0's first narrow_blocks blocks have r - 1
//                   columns, every other block r
//     4 L bytes     blocks of each layer, little-endian 32-bit, each >= 1
//     4 bytes       narrow_blocks (<= layer 0's blocks)
//     1 byte        L, the layers, 1..kMaxLayers
//     1 byte        r, the columns, 1..kMaxColumns
//     1 byte        hash kind: kBandedHashXxh3 = XXH3 64-bit, seed 0
//                   (key_hash64.h)
//     1 byte        body kind, 1
//     1 byte        tag
//   kBandedBodySmallBloom (2) or kBandedBodyFallbackBloom (3): a whole
//     cache-local Bloom filter (structured/tagged_bloom.h), then the body
//     kind and the tag.
//
// A block of c columns is BlockBytes(c) bytes: c little-endian 64-bit words
// (word j: column j of the block's 64 slots, bit k = slot k), then one
// byte, the block's bump threshold code (probes.h). A layer's blocks follow
// each other with no gap, the narrow ones first (Layer::BlockAt).
#ifndef SSTFILTER_FILTER_BANDED_FORMAT_H_
#define SSTFILTER_FILTER_BANDED_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "filter/structured/frame.h"

namespace sstfilter {
namespace banded {

inline constexpr uint32_t kSlotsPerBlock = 64;  // One bit of each column's word.
inline constexpr uint32_t kMaxColumns = 16;
inline constexpr uint32_t kMaxLayers = 4;

inline constexpr size_t BlockBytes(uint32_t columns) { return 8 * size_t{columns} + 1; }

// Bytes of a layer of `blocks` blocks at `columns` columns, the first
// `narrow_blocks` of them one column narrower.
inline constexpr uint64_t LayerBytes(uint64_t blocks, uint32_t columns, uint64_t narrow_blocks) {
  return narrow_blocks * BlockBytes(columns - 1) + (blocks - narrow_blocks) * BlockBytes(columns);
}

// One layer's bytes: blocks [0, narrow_blocks) of columns - 1 columns, the
// rest of `columns`.
struct Layer {
  const uint8_t* data = nullptr;
  uint64_t blocks = 0;
  uint64_t narrow_blocks = 0;
  uint32_t columns = 0;  // 1..kMaxColumns.

  uint32_t ColumnsOf(uint64_t block) const { return columns - (block < narrow_blocks ? 1 : 0); }
  // Each narrow block before `block` is 8 bytes shorter.
  const uint8_t* BlockAt(uint64_t block) const {
    return data + block * BlockBytes(columns) - 8 * (block < narrow_blocks ? block : narrow_blocks);
  }
};

// A filter's layers, in order (layer i at layers[i]).
struct Layers {
  Layer layers[kMaxLayers];
  uint32_t num_layers = 0;
};

}  // namespace banded

// The trailer after the layers, the frame included: BandedTrailerBytes(L).
inline constexpr unsigned char kBandedHashXxh3 = 1;
inline constexpr size_t BandedTrailerBytes(uint32_t layers) { return 4 * size_t{layers} + 9; }

// The frame's bytes.
inline constexpr unsigned char kBandedBodyLayers = kStructuredBody;
inline constexpr unsigned char kBandedBodySmallBloom = kSmallBloomBody;
inline constexpr unsigned char kBandedBodyFallbackBloom = kFallbackBloomBody;
inline constexpr unsigned char kBandedTag = 'B';

// Whether filter carries this encoding's tag (its final byte) after a body
// kind; the rest is checked by the reader's parses.
inline bool IsBandedFilter(std::string_view filter) { return HasFrameTag(filter, kBandedTag); }

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BANDED_FORMAT_H_
