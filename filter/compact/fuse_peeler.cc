#include "filter/compact/fuse_peeler.h"

#include <cassert>
#include <cstring>
#include <new>

namespace sstfilter {

namespace cp = compact;

bool FusePeeler::Start(const cp::FuseParams& p, uint64_t num_cells, uint32_t seed) {
  if (allocated_cells_ < num_cells) {
    // Uninitialised allocations: the memsets below touch each page once.
    // No exceptions: a filter that cannot be built falls back, it never
    // fails the flush or compaction. (Release resets the state set below.)
    Release();
    counts_.reset(new (std::nothrow) uint8_t[num_cells]);
    xors_.reset(new (std::nothrow) uint64_t[num_cells]);
    queue_.reset(new (std::nothrow) uint32_t[num_cells + 1]);
    if (!counts_ || !xors_ || !queue_) {
      Release();
      return false;
    }
    allocated_cells_ = num_cells;
  }
  params_ = p;
  multiplier_ = cp::SeedMultiplier(seed);
  num_cells_ = num_cells;
  peeled_ = 0;
  overflow_ = false;
  num_added_ = 0;
  std::memset(counts_.get(), 0, num_cells);
  std::memset(xors_.get(), 0, num_cells * sizeof(uint64_t));
  return true;
}

bool FusePeeler::Peel(size_t num_keys) {
  if (overflow_) return false;
  uint32_t* queue = queue_.get();
  uint8_t* counts = counts_.get();
  uint64_t* xors = xors_.get();
  // Copies: stores through uint8_t* may alias members, which the loop
  // would otherwise reload after every count update.
  const cp::FuseParams params = params_;
  const uint64_t multiplier = multiplier_;
  // Each cell enters the queue at most once: when its count is 1 at the
  // start, or when it drops from 2 to 1 (counts only fall). So the queue
  // fits in num_cells entries, and the peel order, which grows no faster
  // than the queue is consumed, is written over its consumed front. Pushes
  // are branch-free: the slot at tail is written whether or not it is kept,
  // hence one entry more than cells. (A FIFO keeps consecutive peels
  // independent, so they overlap; with a stack that peels freed cells at
  // once each peel waits on the one before.)
  size_t tail = 0;
  for (uint64_t c = 0; c < num_cells_; ++c) {
    queue[tail] = static_cast<uint32_t>(c);
    tail += counts[c] == 1;
  }
  size_t peeled = 0;
  for (size_t head = 0; head < tail; ++head) {
    const uint32_t alone = queue[head];
    if (counts[alone] != 1) continue;  // Its key left through another cell.
    const uint64_t h = xors[alone];  // The one key left in this cell.
    const cp::Cells cells = cp::CellsOf(h, multiplier, params);
    // Branch-free (which cell is alone, and which counts reach 1, are
    // random): remove the key from its 4 cells (distinct: one per segment),
    // queue each that its removal left at count 1 (not the alone one, now
    // 0), then put h back in the alone cell for Assign.
    for (uint32_t c : cells.c) {
      xors[c] ^= h;
      queue[tail] = c;
      tail += --counts[c] == 1;
    }
    xors[alone] = h;
    queue[peeled++] = alone;
  }
  peeled_ = peeled;
  return peeled == num_keys;
}

void FusePeeler::Assign(char* array, const cp::FuseParams& widths) {
  assert(widths.window_starts == params_.window_starts &&
         widths.segment_length == params_.segment_length);
  SolveCells();
  PackCells(array, widths);
}

// In reverse peel order each key's free cell gets the value that makes the
// key's cells XOR to its fingerprint. Values go into xors_ in place: a free
// cell still holds its key's hash until solved, and every other cell a key
// touches is either solved already (the free cell of a key peeled later) or
// never free, whose XOR peeling brought to 0. (It cannot be the free cell of
// a key peeled earlier: that cell had count 1 while this key still touched it.)
void FusePeeler::SolveCells() {
  uint64_t* xors = xors_.get();
  const bool ahead = PrefetchPays(num_cells_);
  for (size_t i = peeled_; i-- > 0;) {
    if (ahead) {
      // Two stages: the free cell 2 * kSolveAhead keys on, then the cells
      // of the key kSolveAhead on, from the hash its free cell holds until
      // it is solved. (Peel does not prefetch so: its loop is bound by its
      // queue, not by these misses.)
      if (i >= 2 * kSolveAhead) PrefetchCell(queue_[i - 2 * kSolveAhead]);
      if (i >= kSolveAhead) PrefetchCellsOfKeyIn(queue_[i - kSolveAhead]);
    }
    const uint32_t free_cell = queue_[i];
    const cp::Cells cells = cp::CellsOf(xors[free_cell], multiplier_, params_);
    // The free cell holds h, so the XOR of the key's 4 cells (distinct: one
    // per segment) is h XOR the other three: the value that makes them XOR
    // to h, whose low bits are the fingerprint. All 64 bits are kept: the
    // low w bits of an XOR depend only on the low w bits of its terms, so
    // the cells may be packed at any widths of at least the bits each key
    // compares (PackCells drops the rest).
    xors[free_cell] =
        xors[cells.c[0]] ^ xors[cells.c[1]] ^ xors[cells.c[2]] ^ xors[cells.c[3]];
  }
}

// Writes every cell's value at its bit offset (compact/probes.h), in order,
// through a 64-bit accumulator: whole little-endian words, no read-modify-write
// (which stalls on the previous cell's store).
void FusePeeler::PackCells(char* array, const cp::FuseParams& widths) const {
  const uint64_t* xors = xors_.get();
  uint64_t acc = 0;
  int acc_bits = 0;
  char* out = array;
  for (uint64_t c = 0; c < num_cells_; ++c) {
    const int width = cp::CellBits(static_cast<uint32_t>(c), widths);
    const uint64_t v = xors[c] & cp::LowMask(width);
    acc |= v << acc_bits;
    acc_bits += width;
    if (acc_bits >= 64) {
      std::memcpy(out, &acc, sizeof(acc));
      out += sizeof(acc);
      acc_bits -= 64;
      // The bits of v that did not fit (v >> 64 is undefined, hence the test).
      acc = acc_bits == 0 ? 0 : v >> (width - acc_bits);
    }
  }
  std::memcpy(out, &acc, static_cast<size_t>((acc_bits + 7) / 8));
}

void FusePeeler::Release() {
  counts_.reset();
  xors_.reset();
  queue_.reset();
  allocated_cells_ = 0;
  num_cells_ = 0;
  peeled_ = 0;
}

}  // namespace sstfilter
