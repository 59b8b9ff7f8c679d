#include "filter/banded/solver.h"

#include <algorithm>
#include <cstring>

#include "filter/banded/probes.h"
#include "filter/simd_level.h"

namespace sstfilter::banded {

namespace {

// A layer's bands are its keys' (probes.h) at its size.
struct LayerBands {
  uint32_t layer;
  uint64_t blocks;
  Band operator()(uint64_t hash) const { return BandOf(LayerHash(hash, layer), blocks); }
  // BandOf's start alone; it grows with the layer hash.
  uint64_t BlockOf(uint64_t hash) const { return StartOf(hash) / kSlotsPerBlock; }
  uint64_t SectionOf(uint64_t hash) const { return BlockOf(hash) / kSectionBlocks; }
  uint64_t StartOf(uint64_t hash) const {
    return FastRange64(LayerHash(hash, layer), blocks * kSlotsPerBlock - (kSlotsPerBlock - 1));
  }
};

// Groups the hashes by section, in place (American flag sort: a count, then
// each misplaced hash moved along its cycle). Returns where each section's
// hashes begin, and the end.
std::vector<size_t> GroupBySection(HashBlocks* hashes, const LayerBands& band_of,
                                   uint64_t sections) {
  std::vector<size_t> begin(sections + 1, 0);
  for (size_t i = 0; i < hashes->size(); ++i) ++begin[band_of.SectionOf(hashes->At(i)) + 1];
  for (uint64_t s = 0; s < sections; ++s) begin[s + 1] += begin[s];
  if (sections == 1) return begin;
  std::vector<size_t> next(begin.begin(), begin.end() - 1);
  for (uint64_t s = 0; s < sections; ++s) {
    while (next[s] < begin[s + 1]) {
      uint64_t h = hashes->At(next[s]);
      for (uint64_t t = band_of.SectionOf(h); t != s; t = band_of.SectionOf(h)) {
        const uint64_t displaced = hashes->At(next[t]);
        hashes->Set(next[t]++, h);
        h = displaced;
      }
      hashes->Set(next[s]++, h);
    }
  }
  return begin;
}

// One section's keys sorted by their band's start, ties by layer hash, and
// where each of its blocks' keys begin.
struct SectionKeys {
  std::vector<uint64_t> hashes;
  std::vector<uint32_t> first;  // Slot first_slot + i: keys [first[i], first[i + 1]).

  // Block b of the section: keys [BlockBegin(b), BlockBegin(b + 1)).
  uint32_t BlockBegin(uint64_t b) const { return first[b * kSlotsPerBlock]; }
  size_t AllocatedBytes() const {
    return hashes.capacity() * sizeof(uint64_t) + first.capacity() * sizeof(uint32_t);
  }
};

// Sorts hashes [begin, end) of section blocks [first_block, first_block +
// blocks) into *k: a counting sort by start, then each start's few keys
// (about one; ties are rare) by layer hash, so the order does not depend
// on the order the keys came in.
void SortSection(const HashBlocks& hashes, size_t begin, size_t end, const LayerBands& band_of,
                 uint64_t first_block, uint64_t blocks, SectionKeys* k) {
  const uint64_t first_slot = first_block * kSlotsPerBlock;
  const uint64_t slots = blocks * kSlotsPerBlock;
  k->hashes.resize(end - begin);
  k->first.assign(slots + 1, 0);
  for (size_t i = begin; i < end; ++i) ++k->first[band_of.StartOf(hashes.At(i)) - first_slot + 1];
  for (uint64_t i = 0; i < slots; ++i) k->first[i + 1] += k->first[i];
  // Scatter, counting down from each start's end, then order each start's
  // keys by layer hash.
  std::vector<uint32_t> next(k->first.begin() + 1, k->first.end());
  for (size_t i = begin; i < end; ++i) {
    const uint64_t h = hashes.At(i);
    k->hashes[--next[band_of.StartOf(h) - first_slot]] = h;
  }
  const auto by_layer_hash = [&band_of](uint64_t a, uint64_t b) {
    return LayerHash(a, band_of.layer) < LayerHash(b, band_of.layer);
  };
  for (uint64_t i = 0; i < slots; ++i) {
    if (k->first[i + 1] - k->first[i] > 1) {
      std::sort(k->hashes.begin() + k->first[i], k->hashes.begin() + k->first[i + 1],
                by_layer_hash);
    }
  }
}

// A section's coefficient matrix in echelon form: row of each slot (0:
// none) and its right-hand side, slots counted from the section's first.
struct Echelon {
  uint64_t base = 0;  // The section's first slot.
  std::vector<uint64_t> rows;
  std::vector<uint16_t> results;  // r <= kMaxColumns = 16 bits.

  size_t AllocatedBytes() const {
    return rows.capacity() * sizeof(uint64_t) + results.capacity() * sizeof(uint16_t);
  }
};

// Adds the band's equation. Returns the slot (from the section's first) it
// became the pivot of, or -1 if it was implied by the rows there
// (consistent), or -2 if it contradicted them.
int64_t Insert(Echelon* e, const Band& band, uint16_t mask) {
  uint64_t slot = band.start - e->base, c = band.coefficients;
  auto r = static_cast<uint16_t>(band.fingerprint & mask);
  for (;;) {
    if (e->rows[slot] == 0) {
      e->rows[slot] = c;
      e->results[slot] = r;
      return static_cast<int64_t>(slot);
    }
    c ^= e->rows[slot];
    r = static_cast<uint16_t>(r ^ e->results[slot]);
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

// Bumps the block's keys [begin, end) of `hashes` from `threshold` up.
void BumpFrom(uint32_t threshold, const LayerBands& band_of, const std::vector<uint64_t>& hashes,
              size_t begin, size_t end, std::vector<uint64_t>* bumped) {
  for (size_t j = begin; j < end; ++j) {
    if (band_of(hashes[j]).start % kSlotsPerBlock >= threshold) bumped->push_back(hashes[j]);
  }
}

// Inserts one block's keys [begin, end) of `hashes` (ascending offsets); on
// the first contradiction, rolls back those at or above the threshold
// offset (the last inserted) and bumps them with the rest. Returns the
// block's code. `scratch`: (offset, pivot slot or -1) of each key placed,
// 8 bytes (a 16-byte pair, written as two halves and read as one, stalled
// store forwarding).
uint8_t InsertBlock(Echelon* e, const LayerBands& band_of, uint16_t mask,
                    const std::vector<uint64_t>& hashes, size_t begin, size_t end,
                    std::vector<uint64_t>* bumped,
                    std::vector<std::pair<uint32_t, int32_t>>* scratch) {
  std::vector<std::pair<uint32_t, int32_t>>& inserted = *scratch;
  inserted.clear();
  for (size_t i = begin; i < end; ++i) {
    const Band band = band_of(hashes[i]);
    const auto offset = static_cast<uint32_t>(band.start % kSlotsPerBlock);
    const int64_t pivot = Insert(e, band, mask);
    if (pivot != -2) {
      inserted.push_back({offset, static_cast<int32_t>(pivot)});
      continue;
    }
    const uint8_t code = CodeFor(offset);
    const uint32_t threshold = kThresholds[code];
    while (!inserted.empty() && inserted.back().first >= threshold) {
      if (inserted.back().second >= 0) {
        e->rows[inserted.back().second] = 0;
        e->results[inserted.back().second] = 0;
      }
      inserted.pop_back();
    }
    BumpFrom(threshold, band_of, hashes, begin, end, bumped);
    return code;
  }
  return 0;
}

// Back-substitution of a section's `slots` slots, last first; free slots
// get bits from a fixed mix of their index, so absent keys see random bits
// there too. No placed band leaves its section, so nothing past it counts.
inline void SubstituteSlots(const Echelon& e, uint64_t slots, uint32_t layer, SolvedLayer* out) {
  const uint32_t columns = out->columns;
  uint64_t below[kMaxColumns] = {};  // Column j: solution bits of slots i..i+63, bit 0 = slot i.
  for (uint64_t i = slots; i-- > 0;) {
    const uint64_t slot = e.base + i;
    const uint64_t row = e.rows[i];
    const uint64_t fill = Mix64(slot ^ (uint64_t{layer} << 56) ^ 0x62616e646564ULL);
    uint64_t* words = &out->words[(slot / kSlotsPerBlock) * columns];
    for (uint32_t j = 0; j < columns; ++j) {
      const uint64_t rest = below[j] << 1;
      const uint64_t bit = row != 0
                               ? (static_cast<uint64_t>(__builtin_parityll(row & rest)) ^
                                  ((e.results[i] >> j) & 1))
                               : (fill >> j) & 1;
      below[j] = rest | bit;
      words[j] |= bit << (slot % kSlotsPerBlock);
    }
  }
}

// Its parities are most of its time: with POPCNT where the CPU has it
// (baseline x86-64 computes a parity in about 6 instructions).
#ifdef SSTFILTER_X86_SIMD_TARGETS
__attribute__((target("popcnt"))) void SubstitutePopcnt(const Echelon& e, uint64_t slots,
                                                        uint32_t layer, SolvedLayer* out) {
  SubstituteSlots(e, slots, layer, out);
}
void Substitute(const Echelon& e, uint64_t slots, uint32_t layer, SolvedLayer* out) {
  static const bool popcnt = __builtin_cpu_supports("popcnt");
  popcnt ? SubstitutePopcnt(e, slots, layer, out) : SubstituteSlots(e, slots, layer, out);
}
#else
void Substitute(const Echelon& e, uint64_t slots, uint32_t layer, SolvedLayer* out) {
  SubstituteSlots(e, slots, layer, out);
}
#endif

}  // namespace

SolvedLayer SolveLayer(HashBlocks* hashes, uint32_t layer, uint64_t blocks, uint32_t columns,
                       std::vector<uint64_t>* bumped, size_t* temp_bytes) {
  const LayerBands band_of{layer, blocks};
  const uint64_t sections = (blocks + kSectionBlocks - 1) / kSectionBlocks;
  const std::vector<size_t> begin = GroupBySection(hashes, band_of, sections);
  SolvedLayer solved{blocks, columns, std::vector<uint64_t>(blocks * columns, 0),
                     std::vector<uint8_t>(blocks, 0)};
  const uint16_t mask = static_cast<uint16_t>((uint32_t{1} << columns) - 1);
  SectionKeys keys;
  size_t most_keys = 0;  // Of a section: reserved once (resize would double).
  for (uint64_t s = 0; s < sections; ++s) most_keys = std::max(most_keys, begin[s + 1] - begin[s]);
  keys.hashes.reserve(most_keys);
  Echelon e;
  std::vector<std::pair<uint32_t, int32_t>> scratch;
  for (uint64_t s = 0; s < sections; ++s) {
    const uint64_t first_block = s * kSectionBlocks;
    const uint64_t section_blocks = std::min<uint64_t>(kSectionBlocks, blocks - first_block);
    SortSection(*hashes, begin[s], begin[s + 1], band_of, first_block, section_blocks, &keys);
    e.base = first_block * kSlotsPerBlock;
    e.rows.assign(section_blocks * kSlotsPerBlock, 0);
    e.results.assign(section_blocks * kSlotsPerBlock, 0);
    for (uint64_t b = 0; b < section_blocks; ++b) {
      const uint32_t from = keys.BlockBegin(b), to = keys.BlockBegin(b + 1);
      if (b + 1 == section_blocks && s + 1 < sections) {
        // Bands from the section's last block reach the next section: its
        // keys are all bumped, so that sections are solved on their own.
        solved.codes[first_block + b] = kNumThresholdCodes - 1;
        BumpFrom(0, band_of, keys.hashes, from, to, bumped);
      } else if (from < to) {
        solved.codes[first_block + b] =
            InsertBlock(&e, band_of, mask, keys.hashes, from, to, bumped, &scratch);
      }
    }
    *temp_bytes = std::max(*temp_bytes, keys.AllocatedBytes() + e.AllocatedBytes() +
                                            begin.capacity() * sizeof(size_t) * 2);
    Substitute(e, section_blocks * kSlotsPerBlock, layer, &solved);
  }
  return solved;
}

void WriteLayer(const SolvedLayer& solved, uint32_t columns, uint64_t narrow_blocks,
                uint8_t* out) {
  for (uint64_t b = 0; b < solved.blocks; ++b) {
    const uint32_t width = columns - (b < narrow_blocks ? 1 : 0);
    std::memcpy(out, &solved.words[b * solved.columns], 8 * size_t{width});
    out[8 * width] = solved.codes[b];
    out += BlockBytes(width);
  }
}

}  // namespace sstfilter::banded
