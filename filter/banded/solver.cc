#include "filter/banded/solver.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "filter/banded/probes.h"

namespace sstfilter::banded {

namespace {

// A layer's equations, sorted by start (so by block, then offset).
std::vector<Band> SortedBands(absl::Span<const uint64_t> hashes, uint32_t layer, uint64_t blocks,
                              uint32_t columns, std::vector<uint64_t>* sorted_hashes) {
  std::vector<std::pair<Band, uint64_t>> bands;
  bands.reserve(hashes.size());
  for (uint64_t h : hashes) bands.push_back({BandOf(LayerHash(h, layer), blocks, columns), h});
  // Ties (same start) by hash: the bytes do not depend on the input order.
  std::sort(bands.begin(), bands.end(), [](const auto& a, const auto& b) {
    return a.first.start != b.first.start ? a.first.start < b.first.start : a.second < b.second;
  });
  std::vector<Band> out;
  out.reserve(bands.size());
  sorted_hashes->clear();
  for (const auto& [band, h] : bands) {
    out.push_back(band);
    sorted_hashes->push_back(h);
  }
  return out;
}

// The coefficient matrix in echelon form: row of each slot (0: none) and
// its right-hand side.
struct Echelon {
  std::vector<uint64_t> rows;
  std::vector<uint32_t> results;
};

// Adds the band's equation. Returns the slot it became the pivot of, or -1
// if it was implied by the rows there (consistent), or -2 if it
// contradicted them.
int64_t Insert(Echelon* e, const Band& band) {
  uint64_t slot = band.start, c = band.coefficients;
  uint32_t r = band.fingerprint;
  for (;;) {
    if (e->rows[slot] == 0) {
      e->rows[slot] = c;
      e->results[slot] = r;
      return static_cast<int64_t>(slot);
    }
    c ^= e->rows[slot];
    r ^= e->results[slot];
    if (c == 0) return r == 0 ? -1 : -2;
    const int shift = __builtin_ctzll(c);
    c >>= shift;
    slot += static_cast<uint64_t>(shift);
  }
}

// The threshold code for a failure at `offset`: the largest threshold at or
// below it (kThresholds descend).
uint8_t CodeFor(uint32_t offset) {
  for (uint8_t code = 1; code < kNumThresholdCodes; ++code) {
    if (kThresholds[code] <= offset) return code;
  }
  return kNumThresholdCodes - 1;
}

// Inserts one block's bands [begin, end) (ascending offsets); on the first
// contradiction, rolls back those at or above the threshold offset (the
// last inserted) and bumps them with the rest. Returns the block's code.
uint8_t InsertBlock(Echelon* e, const std::vector<Band>& bands, size_t begin, size_t end,
                    const std::vector<uint64_t>& hashes, std::vector<uint64_t>* bumped) {
  std::vector<std::pair<uint32_t, int64_t>> inserted;  // (offset, pivot slot or -1).
  for (size_t i = begin; i < end; ++i) {
    const int64_t pivot = Insert(e, bands[i]);
    if (pivot != -2) {
      inserted.push_back({static_cast<uint32_t>(bands[i].start % kSlotsPerBlock), pivot});
      continue;
    }
    const uint8_t code = CodeFor(bands[i].start % kSlotsPerBlock);
    const uint32_t threshold = kThresholds[code];
    while (!inserted.empty() && inserted.back().first >= threshold) {
      if (inserted.back().second >= 0) {
        e->rows[inserted.back().second] = 0;
        e->results[inserted.back().second] = 0;
      }
      inserted.pop_back();
    }
    for (size_t j = begin; j < end; ++j) {
      if (bands[j].start % kSlotsPerBlock >= threshold) bumped->push_back(hashes[j]);
    }
    return code;
  }
  return 0;
}

// Back-substitution, last slot first; free slots get bits from a fixed mix
// of their index, so absent keys see random bits there too.
void Substitute(const Echelon& e, uint64_t blocks, uint32_t columns, uint32_t layer, uint8_t* out) {
  const size_t block_bytes = BlockBytes(columns);
  uint64_t below[kMaxColumns] = {};  // Column j: solution bits of slots i..i+63, bit 0 = slot i.
  uint64_t words[kMaxColumns] = {};
  for (uint64_t slot = blocks * kSlotsPerBlock; slot-- > 0;) {
    const uint64_t row = e.rows[slot];
    const uint64_t fill = Mix64(slot ^ (uint64_t{layer} << 56) ^ 0x62616e646564ULL);
    for (uint32_t j = 0; j < columns; ++j) {
      const uint64_t rest = below[j] << 1;
      const uint64_t bit = row != 0
                               ? (static_cast<uint64_t>(__builtin_parityll(row & rest)) ^
                                  ((e.results[slot] >> j) & 1))
                               : (fill >> j) & 1;
      below[j] = rest | bit;
      words[j] |= bit << (slot % kSlotsPerBlock);
    }
    if (slot % kSlotsPerBlock == 0) {
      uint8_t* block = out + (slot / kSlotsPerBlock) * block_bytes;
      for (uint32_t j = 0; j < columns; ++j) {
        std::memcpy(block + 8 * j, &words[j], sizeof(uint64_t));
        words[j] = 0;
      }
    }
  }
}

}  // namespace

uint64_t LayerBlocks(size_t keys, uint32_t layer) {
  const double overhead = layer == 0 ? kFirstLayerOverhead : kLaterLayerOverhead;
  const auto blocks = static_cast<uint64_t>(
      std::ceil(static_cast<double>(keys) * (1 + overhead) / kSlotsPerBlock));
  return std::max<uint64_t>(blocks, 2);
}

void SolveLayer(absl::Span<const uint64_t> hashes, uint32_t layer, uint64_t blocks,
                uint32_t columns, uint8_t* out, std::vector<uint64_t>* bumped) {
  std::vector<uint64_t> sorted;
  const std::vector<Band> bands = SortedBands(hashes, layer, blocks, columns, &sorted);
  Echelon e{std::vector<uint64_t>(blocks * kSlotsPerBlock, 0),
            std::vector<uint32_t>(blocks * kSlotsPerBlock, 0)};
  std::vector<uint8_t> codes(blocks, 0);
  for (size_t begin = 0; begin < bands.size();) {
    const uint64_t block = bands[begin].start / kSlotsPerBlock;
    size_t end = begin;
    while (end < bands.size() && bands[end].start / kSlotsPerBlock == block) ++end;
    codes[block] = InsertBlock(&e, bands, begin, end, sorted, bumped);
    begin = end;
  }
  Substitute(e, blocks, columns, layer, out);
  for (uint64_t b = 0; b < blocks; ++b) out[b * BlockBytes(columns) + 8 * columns] = codes[b];
}

SolvedLayers SolveLayers(absl::Span<const uint64_t> hashes, uint32_t columns) {
  SolvedLayers s;
  std::vector<uint64_t> keys(hashes.begin(), hashes.end());
  for (uint32_t layer = 0; layer < kMaxLayers && (layer == 0 || !keys.empty()); ++layer) {
    const uint64_t blocks = LayerBlocks(keys.size(), layer);
    s.blocks.push_back(blocks);
    s.bytes.emplace_back(blocks * BlockBytes(columns), 0);
    std::vector<uint64_t> bumped;
    SolveLayer(keys, layer, blocks, columns, s.bytes.back().data(), &bumped);
    keys = std::move(bumped);
  }
  s.unplaced = std::move(keys);
  return s;
}

bool LayersMayMatch(const SolvedLayers& layers, uint32_t columns, uint64_t hash) {
  for (uint32_t layer = 0; layer < layers.blocks.size(); ++layer) {
    const Band band = BandOf(LayerHash(hash, layer), layers.blocks[layer], columns);
    const uint8_t* bytes = layers.bytes[layer].data();
    if (!Bumped(bytes, columns, band.start)) return BandMatches(bytes, columns, band);
  }
  return true;
}

}  // namespace sstfilter::banded
