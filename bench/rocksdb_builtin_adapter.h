// Adapter for RocksDB's built-in filters, driven through the same
// FilterBitsBuilder / FilterBitsReader interface a block-based table uses.
#ifndef SSTFILTER_BENCH_ROCKSDB_BUILTIN_ADAPTER_H_
#define SSTFILTER_BENCH_ROCKSDB_BUILTIN_ADAPTER_H_

#include <memory>

#include "bench/bench_filter.h"

namespace sstfilter::bench {

enum class RocksDbBuiltin {
  kFastLocalBloom,  // format_version 5 Bloom (bloomfilter:N today).
  kLegacyBloom,     // format_version < 5 cache-local Bloom.
  kRibbon,          // Standard128Ribbon; bits_per_key is Bloom-equivalent.
};

std::unique_ptr<BenchFilter> NewRocksDbBenchFilter(RocksDbBuiltin impl,
                                                   double bits_per_key);

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_ROCKSDB_BUILTIN_ADAPTER_H_
