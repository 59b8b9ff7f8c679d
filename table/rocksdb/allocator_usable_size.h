// The real allocator's size classes, for sizing filters to them
// (BlockBasedTableOptions::optimize_filters_for_memory, filter/memory_sizing.h).
#ifndef SSTFILTER_TABLE_ROCKSDB_ALLOCATOR_USABLE_SIZE_H_
#define SSTFILTER_TABLE_ROCKSDB_ALLOCATOR_USABLE_SIZE_H_

#include <cstddef>

namespace sstfilter {

// RocksDB reads a block into one allocation of its bytes plus its 5-byte
// trailer (compression type, checksum), and charges the block cache the
// allocation's malloc_usable_size: the overhead a filter is sized with.
inline constexpr size_t kRocksDbBlockTrailerBytes = 5;

// Whether AllocatorUsableSize reports the allocator's real size classes:
// false where the C library has no malloc_usable_size (RocksDB then ignores
// optimize_filters_for_memory too).
bool AllocatorReportsUsableSize();

// malloc_usable_size of trial allocations of `bytes` (freed again), from
// whichever allocator the process runs on (glibc, or jemalloc preloaded or
// linked in: operator new and RocksDB's blocks come from the same one).
// `bytes` itself where AllocatorReportsUsableSize() is false.
size_t AllocatorUsableSize(size_t bytes);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_ROCKSDB_ALLOCATOR_USABLE_SIZE_H_
