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
  uint64_t BlockOf(uint64_t hash) const {
    return FastRange64(LayerHash(hash, layer), blocks * kSlotsPerBlock - (kSlotsPerBlock - 1)) /
           kSlotsPerBlock;
  }
};

// The layer's keys sorted by their band's start (so by block, then
// offset), ties by hash, and where each block's keys begin: a counting sort
// by block, then each block's few keys sorted. Only hashes are kept (8
// bytes a key); bands are recomputed from them where needed.
struct KeysByBlock {
  std::vector<uint64_t> hashes;
  std::vector<uint32_t> first;  // Block b's keys: [first[b], first[b + 1]).
};

KeysByBlock SortedHashes(HashRuns runs, const LayerBands& band_of) {
  auto block_of = [&](uint64_t h) { return band_of.BlockOf(h); };
  size_t n = 0;
  for (absl::Span<const uint64_t> run : runs) n += run.size();
  KeysByBlock k{std::vector<uint64_t>(n), std::vector<uint32_t>(band_of.blocks + 1, 0)};
  for (absl::Span<const uint64_t> run : runs) {
    for (uint64_t h : run) ++k.first[block_of(h) + 1];
  }
  for (uint64_t b = 0; b < band_of.blocks; ++b) k.first[b + 1] += k.first[b];
  {
    std::vector<uint32_t> next(k.first.begin(), k.first.end() - 1);
    for (absl::Span<const uint64_t> run : runs) {
      for (uint64_t h : run) k.hashes[next[block_of(h)]++] = h;
    }
  }
  // Starts grow with the layer hash (a bijection of the hash): sorting by it
  // sorts by start. In layer 0 it is the hash itself.
  if (band_of.layer == 0) {
    for (uint64_t b = 0; b < band_of.blocks; ++b) {
      std::sort(k.hashes.begin() + k.first[b], k.hashes.begin() + k.first[b + 1]);
    }
    return k;
  }
  std::vector<std::pair<uint64_t, uint64_t>> block;  // (layer hash, hash) of one block.
  for (uint64_t b = 0; b < band_of.blocks; ++b) {
    block.clear();
    for (uint32_t i = k.first[b]; i < k.first[b + 1]; ++i) {
      block.push_back({LayerHash(k.hashes[i], band_of.layer), k.hashes[i]});
    }
    std::sort(block.begin(), block.end());
    for (uint32_t i = k.first[b]; i < k.first[b + 1]; ++i) {
      k.hashes[i] = block[i - k.first[b]].second;
    }
  }
  return k;
}

// The coefficient matrix in echelon form: row of each slot (0: none) and
// its right-hand side.
struct Echelon {
  std::vector<uint64_t> rows;
  std::vector<uint16_t> results;  // r <= kMaxColumns = 16 bits.
};

// Adds the band's equation. Returns the slot it became the pivot of, or -1
// if it was implied by the rows there (consistent), or -2 if it
// contradicted them.
int64_t Insert(Echelon* e, const Band& band, uint16_t mask) {
  uint64_t slot = band.start, c = band.coefficients;
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

// Inserts one block's keys [begin, end) of `hashes` (ascending offsets); on
// the first contradiction, rolls back those at or above the threshold
// offset (the last inserted) and bumps them with the rest. Returns the
// block's code. `scratch`: (offset, pivot slot or -1) of each key placed.
uint8_t InsertBlock(Echelon* e, const LayerBands& band_of, uint16_t mask,
                    const std::vector<uint64_t>& hashes,
                    size_t begin, size_t end, std::vector<uint64_t>* bumped,
                    std::vector<std::pair<uint32_t, int64_t>>* scratch) {
  std::vector<std::pair<uint32_t, int64_t>>& inserted = *scratch;
  inserted.clear();
  for (size_t i = begin; i < end; ++i) {
    const Band band = band_of(hashes[i]);
    const auto offset = static_cast<uint32_t>(band.start % kSlotsPerBlock);
    const int64_t pivot = Insert(e, band, mask);
    if (pivot != -2) {
      inserted.push_back({offset, pivot});
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
    for (size_t j = begin; j < end; ++j) {
      if (band_of(hashes[j]).start % kSlotsPerBlock >= threshold) bumped->push_back(hashes[j]);
    }
    return code;
  }
  return 0;
}

// Back-substitution, last slot first; free slots get bits from a fixed mix
// of their index, so absent keys see random bits there too.
inline void SubstituteSlots(const Echelon& e, uint32_t layer, SolvedLayer* out) {
  const uint32_t columns = out->columns;
  uint64_t below[kMaxColumns] = {};  // Column j: solution bits of slots i..i+63, bit 0 = slot i.
  for (uint64_t slot = out->blocks * kSlotsPerBlock; slot-- > 0;) {
    const uint64_t row = e.rows[slot];
    const uint64_t fill = Mix64(slot ^ (uint64_t{layer} << 56) ^ 0x62616e646564ULL);
    uint64_t* words = &out->words[(slot / kSlotsPerBlock) * columns];
    for (uint32_t j = 0; j < columns; ++j) {
      const uint64_t rest = below[j] << 1;
      const uint64_t bit = row != 0
                               ? (static_cast<uint64_t>(__builtin_parityll(row & rest)) ^
                                  ((e.results[slot] >> j) & 1))
                               : (fill >> j) & 1;
      below[j] = rest | bit;
      words[j] |= bit << (slot % kSlotsPerBlock);
    }
  }
}

// Its parities are most of its time: with POPCNT where the CPU has it
// (baseline x86-64 computes a parity in about 6 instructions).
#ifdef SSTFILTER_X86_SIMD_TARGETS
__attribute__((target("popcnt"))) void SubstitutePopcnt(const Echelon& e, uint32_t layer,
                                                        SolvedLayer* out) {
  SubstituteSlots(e, layer, out);
}
void Substitute(const Echelon& e, uint32_t layer, SolvedLayer* out) {
  static const bool popcnt = __builtin_cpu_supports("popcnt");
  popcnt ? SubstitutePopcnt(e, layer, out) : SubstituteSlots(e, layer, out);
}
#else
void Substitute(const Echelon& e, uint32_t layer, SolvedLayer* out) {
  SubstituteSlots(e, layer, out);
}
#endif

}  // namespace

SolvedLayer SolveLayer(HashRuns runs, uint32_t layer, uint64_t blocks,
                       uint32_t columns, std::vector<uint64_t>* bumped, size_t* temp_bytes) {
  const LayerBands band_of{layer, blocks};
  const KeysByBlock keys = SortedHashes(runs, band_of);
  Echelon e{std::vector<uint64_t>(blocks * kSlotsPerBlock, 0),
            std::vector<uint16_t>(blocks * kSlotsPerBlock, 0)};
  *temp_bytes = std::max(*temp_bytes, keys.hashes.capacity() * sizeof(uint64_t) +
                                          keys.first.capacity() * sizeof(uint32_t) +
                                          e.rows.capacity() * sizeof(uint64_t) +
                                          e.results.capacity() * sizeof(uint16_t));
  SolvedLayer solved{blocks, columns, std::vector<uint64_t>(blocks * columns, 0),
                     std::vector<uint8_t>(blocks, 0)};
  const uint16_t mask = static_cast<uint16_t>((uint32_t{1} << columns) - 1);
  std::vector<std::pair<uint32_t, int64_t>> scratch;
  for (uint64_t b = 0; b < blocks; ++b) {
    if (keys.first[b] == keys.first[b + 1]) continue;
    solved.codes[b] = InsertBlock(&e, band_of, mask, keys.hashes, keys.first[b],
                                  keys.first[b + 1], bumped, &scratch);
  }
  Substitute(e, layer, &solved);
  return solved;
}

uint64_t LayerBytes(uint64_t blocks, uint32_t columns, uint64_t narrow_blocks) {
  return narrow_blocks * BlockBytes(columns - 1) + (blocks - narrow_blocks) * BlockBytes(columns);
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
