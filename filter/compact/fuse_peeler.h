// Construction of a binary fuse filter by peeling (Graf & Lemire, "Binary
// Fuse Filters", 2022; the XOR trick: a cell keeps the count and the XOR of
// the hashes of the keys touching it, so a cell with count 1 names its key).
//
// Per attempt (one seed):   Start  (Add* | AddAhead* FinishAdds)  Peel  (Assign if
// Peel succeeded)
// Peel finds an order in which each key has a cell no later key touches;
// Assign walks it backwards and sets that cell so the key's cells XOR to its
// fingerprint, then packs the cells into the filter's bit array. Peeling
// fails when keys are left in a 2-core (about one attempt in many at the
// shapes compact/math.h picks; always for duplicate hashes, which the caller
// removes) or a cell counts 255 keys.
//
// Memory per cell: 1 byte count, 8 bytes XOR, 4 bytes queue (13 bytes, about
// 14 per key); the queue is reused as the peel order.
#ifndef SSTFILTER_FILTER_COMPACT_FUSE_PEELER_H_
#define SSTFILTER_FILTER_COMPACT_FUSE_PEELER_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "filter/compact/probes.h"

namespace sstfilter {

class FusePeeler {
 public:
  // Empties num_cells cells for keys of shape p probed with seed. False
  // when the cells cannot be allocated (then nothing is held).
  [[nodiscard]] bool Start(const compact::FuseParams& p, uint64_t num_cells, uint32_t seed);

  void Add(uint64_t h) { Apply({h, compact::CellsOf(h, multiplier_, params_)}); }

  // Adds a key as Add does, its cells prefetched now and updated kLookahead
  // keys later; FinishAdds after the last. Pays only when the cells are well
  // past the L2 cache (PrefetchPays); for smaller filters the prefetches cost
  // more than the misses they hide (docs/results.md#compact-tuning).
  void AddAhead(uint64_t h) {
    Pending& slot = pending_[num_added_ % kLookahead];
    if (num_added_ >= kLookahead) Apply(slot);
    slot = {h, compact::CellsOf(h, multiplier_, params_)};
    for (uint32_t c : slot.cells.c) PrefetchCell(c);
    ++num_added_;
  }
  void FinishAdds() {
    const uint64_t first = num_added_ > kLookahead ? num_added_ - kLookahead : 0;
    for (uint64_t i = first; i < num_added_; ++i) Apply(pending_[i % kLookahead]);
  }
  static bool PrefetchPays(uint64_t num_cells) { return num_cells > (uint64_t{1} << 18); }

  // Whether all num_keys added keys peel.
  bool Peel(size_t num_keys);

  // Whether a cell reached 255 keys since Start (Peel then fails at once).
  bool overflowed() const { return overflow_; }

  // After a Peel that failed without overflow: whether the key with hash h
  // was left unpeeled (in the 2-core every cell holds 0 or at least 2 keys,
  // and a peeled key's free cell holds 0). Equal hashes never peel.
  bool LeftUnpeeled(uint64_t h) const {
    if (overflow_) return true;  // Never peeled: every key is left.
    const compact::Cells cells = compact::CellsOf(h, multiplier_, params_);
    for (uint32_t c : cells.c) {
      if (counts_[c] < 2) return false;
    }
    return true;
  }

  // Writes the cells into array at the fingerprint widths of `widths`
  // (fingerprint_bits, narrow_cells: the shape Start was given or another
  // on the same cells, FitFingerprints): its array_bytes bytes, each one
  // written, nothing after them. Consumes the peel state (Start again to
  // reuse). REQUIRES: Peel returned true.
  void Assign(char* array, const compact::FuseParams& widths);

  // Frees the cells. AllocatedBytes: what they take while held.
  void Release();
  size_t AllocatedBytes() const { return BytesFor(allocated_cells_); }
  // What Start allocates for num_cells cells.
  static size_t BytesFor(uint64_t num_cells) { return num_cells * kBytesPerCell; }

 private:
  static constexpr uint64_t kLookahead = 16;
  struct Pending {
    uint64_t h;
    compact::Cells cells;
  };
  void Apply(const Pending& p) {
    for (uint32_t c : p.cells.c) {
      overflow_ |= ++counts_[c] == 0xff;
      xors_[c] ^= p.h;
    }
  }

  // SolveCells prefetches this many keys ahead when PrefetchPays (the
  // distance that hid the most misses: docs/results.md#compact-tuning).
  static constexpr size_t kSolveAhead = 16;
  void PrefetchCell(uint32_t c) const {
    __builtin_prefetch(&xors_[c], 1);
    __builtin_prefetch(&counts_[c], 1);
  }
  // The cells of the key whose hash cell c holds (if it holds one key).
  void PrefetchCellsOfKeyIn(uint32_t c) const {
    for (uint32_t k : compact::CellsOf(xors_[c], multiplier_, params_).c) PrefetchCell(k);
  }
  void SolveCells();
  void PackCells(char* array, const compact::FuseParams& widths) const;

  // (The queue's one extra entry is not counted.)
  static constexpr size_t kBytesPerCell = sizeof(uint8_t) + sizeof(uint64_t) + sizeof(uint32_t);
  compact::FuseParams params_;
  uint64_t multiplier_ = 0;  // SeedMultiplier(seed).
  uint64_t num_cells_ = 0;
  uint64_t allocated_cells_ = 0;
  size_t peeled_ = 0;
  bool overflow_ = false;
  uint64_t num_added_ = 0;
  Pending pending_[kLookahead];
  std::unique_ptr<uint8_t[]> counts_;
  std::unique_ptr<uint64_t[]> xors_;
  std::unique_ptr<uint32_t[]> queue_;  // Cells to peel, then the peel order.
};

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_COMPACT_FUSE_PEELER_H_
