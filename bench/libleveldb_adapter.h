// Adapter for LevelDB's own Bloom filter (Debian's libleveldb):
// NewBloomFilterPolicy(bits_per_key)->CreateFilter / KeyMayMatch.
#ifndef SSTFILTER_BENCH_LIBLEVELDB_ADAPTER_H_
#define SSTFILTER_BENCH_LIBLEVELDB_ADAPTER_H_

#include <memory>

#include "bench/bench_filter.h"

namespace sstfilter::bench {

// LevelDB takes whole bits/key; bits_per_key is rounded to the nearest int.
// It has no batched query: MayMatchBatch asks KeyMayMatch key by key.
std::unique_ptr<BenchFilter> NewLibLevelDbBenchFilter(double bits_per_key);

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_LIBLEVELDB_ADAPTER_H_
