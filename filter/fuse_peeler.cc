#include "filter/fuse_peeler.h"

#include <cassert>
#include <cstring>

namespace sstfilter {

namespace cp = compact;

void FusePeeler::Start(const cp::FuseParams& p, uint64_t num_cells, uint32_t seed) {
  params_ = p;
  seed_ = seed;
  num_cells_ = num_cells;
  peeled_ = 0;
  overflow_ = false;
  if (allocated_cells_ < num_cells) {
    // Uninitialised allocations: the memsets below touch each page once.
    counts_.reset(new uint8_t[num_cells]);
    xors_.reset(new uint64_t[num_cells]);
    queue_.reset(new uint32_t[num_cells]);
    allocated_cells_ = num_cells;
  }
  std::memset(counts_.get(), 0, num_cells);
  std::memset(xors_.get(), 0, num_cells * sizeof(uint64_t));
}

bool FusePeeler::Peel(size_t num_keys) {
  if (overflow_) return false;
  uint32_t* queue = queue_.get();
  uint8_t* counts = counts_.get();
  uint64_t* xors = xors_.get();
  // Each cell enters the queue at most once: when its count is 1 at the
  // start, or when it drops from 2 to 1 (counts only fall). So the queue
  // fits in num_cells entries, and the peel order, which grows no faster
  // than the queue is consumed, is written over its consumed front.
  size_t tail = 0;
  for (uint64_t c = 0; c < num_cells_; ++c) {
    if (counts[c] == 1) queue[tail++] = static_cast<uint32_t>(c);
  }
  size_t peeled = 0;
  for (size_t head = 0; head < tail; ++head) {
    const uint32_t alone = queue[head];
    if (counts[alone] != 1) continue;  // Its key left through another cell.
    const uint64_t h = xors[alone];  // The one key left in this cell.
    const cp::Cells cells = cp::CellsOf(h, seed_, params_);
    for (uint32_t c : cells.c) {
      if (c == alone) continue;
      xors[c] ^= h;
      if (--counts[c] == 1) queue[tail++] = c;
    }
    counts[alone] = 0;  // xors[alone] keeps h for Assign.
    queue[peeled++] = alone;
  }
  peeled_ = peeled;
  return peeled == num_keys;
}

void FusePeeler::Assign(char* array) const {
  for (size_t i = peeled_; i-- > 0;) {
    const uint32_t free_cell = queue_[i];
    const uint64_t h = xors_[free_cell];
    const cp::Cells cells = cp::CellsOf(h, seed_, params_);
    uint64_t value = h;  // The fingerprint is h's low bits.
    for (uint32_t c : cells.c) {
      if (c != free_cell) value ^= cp::LoadCell(array, c, params_);
    }
    // Bits above the cell's width would spill into the next cell. When the
    // key compares fewer bits than the cell holds, the top bit is free.
    value &= cp::LowMask(cp::CellBits(free_cell, params_));
    const uint64_t bit = cp::CellBitOffset(free_cell, params_);
    uint64_t word;
    std::memcpy(&word, array + (bit >> 3), sizeof(word));
    word |= value << (bit & 7);
    std::memcpy(array + (bit >> 3), &word, sizeof(word));
  }
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
