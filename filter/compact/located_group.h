// The scalar half of the compact query kernels (compact/kernels.h): a group of
// keys whose cells a SIMD kernel located (bit offsets and compare masks, as
// LocateCell and ProbeOf give them) is prefetched, then probed. Header-only
// so it inlines into each kernel's target-specific function.
#ifndef SSTFILTER_FILTER_COMPACT_LOCATED_GROUP_H_
#define SSTFILTER_FILTER_COMPACT_LOCATED_GROUP_H_

#include <cstddef>
#include <cstdint>

#include "filter/compact/probes.h"
#include "filter/compact/kernels.h"

namespace sstfilter::compact {

// Up to kCompactSimdMaxGroup keys: cell j of key i starts at bit bit[j][i]
// of the array; key i compares the bits of mask[i].
struct LocatedGroup {
  alignas(64) uint64_t bit[kCompactArity][kCompactSimdMaxGroup];
  alignas(64) uint64_t mask[kCompactSimdMaxGroup];
};

// Prefetches the cells of keys [first, end).
inline void PrefetchLocated(const char* array, const LocatedGroup& at, size_t first, size_t end) {
  for (size_t i = first; i < end; ++i) {
    for (const auto& bit : at.bit) __builtin_prefetch(array + CellAtBit(bit[i]).byte);
  }
}

// out[i] = whether hashes[i] may be in the filter, for i < n.
inline void ProbeLocated(const char* array, const uint64_t* hashes, size_t n,
                         const LocatedGroup& at, bool* out) {
  for (size_t i = 0; i < n; ++i) {
    uint64_t x = hashes[i];
    for (const auto& bit : at.bit) x ^= LoadCellAt(array, CellAtBit(bit[i]));
    out[i] = (x & at.mask[i]) == 0;
  }
}

}  // namespace sstfilter::compact

#endif  // SSTFILTER_FILTER_COMPACT_LOCATED_GROUP_H_
