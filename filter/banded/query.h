// A banded filter's query, over its layers' bytes, at a probe of layer 0
// (banded/kernels.h instantiates it once per instruction set, so that the
// probe inlines): pure, header-only, no allocation and no format parsing.
#ifndef SSTFILTER_FILTER_BANDED_QUERY_H_
#define SSTFILTER_FILTER_BANDED_QUERY_H_

#include <cstddef>
#include <cstdint>

#include "filter/banded/probes.h"

namespace sstfilter::banded {

// Keys a batched query takes at once.
inline constexpr size_t kMaxGroup = 32;

// Whether a key of hash h may be in the set: layer 0 answers by `probe` (a
// LayerAnswer of a LocatedBand), the later layers, for the ~1% of keys it
// bumped, by the scalar probe. REQUIRES: l.num_layers >= 1.
template <typename Probe>
inline bool QueryHash(const Layers& l, uint64_t h, Probe probe) {
  const Layer& first = l.layers[0];
  const LayerAnswer a = probe(LocateBand(first, BandOf(h, first.blocks)));
  if (a != LayerAnswer::kBumped) return a == LayerAnswer::kMatch;
  return LayersMayMatch(l.layers + 1, l.num_layers - 1, h, 1);
}

// out[i] = QueryHash(l, hashes[i], probe), every key's lines located and
// prefetched before any is read, so the misses overlap. REQUIRES: n <=
// kMaxGroup.
template <typename Probe>
inline void QueryHashes(const Layers& l, const uint64_t* hashes, size_t n, bool* out,
                        Probe probe) {
  const Layer& first = l.layers[0];
  LocatedBand located[kMaxGroup];
  for (size_t i = 0; i < n; ++i) {
    located[i] = LocateBand(first, BandOf(hashes[i], first.blocks));
    PrefetchBand(located[i]);
  }
  for (size_t i = 0; i < n; ++i) {
    const LayerAnswer a = probe(located[i]);
    out[i] = a == LayerAnswer::kBumped
                 ? LayersMayMatch(l.layers + 1, l.num_layers - 1, hashes[i], 1)
                 : a == LayerAnswer::kMatch;
  }
}

}  // namespace sstfilter::banded

#endif  // SSTFILTER_FILTER_BANDED_QUERY_H_
