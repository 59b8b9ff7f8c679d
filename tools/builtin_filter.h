// What a filter of RocksDB's built-in policy holds (compatibility name
// rocksdb.BuiltinBloomFilter: bloomfilter, ribbonfilter and the legacy
// Bloom of format_version < 5), read from the format's facts, so the SST
// inspector can model any table's FP, not only ours.
//
// Every built-in filter ends in 5 bytes of metadata; a filter of 5 bytes or
// fewer matches nothing. The first of the five says which kind:
//   -1  FastLocalBloom (format_version >= 5): then a sub-implementation byte
//       (0), a byte with k in its low 5 bits and log2(block bytes) - 6 in its
//       top 3 (0: 64-byte blocks), two zero bytes. Each key sets k bits of
//       one 512-bit block: a blocked Bloom filter, 64-bit hash.
//   -2  Standard128Ribbon: a seed byte, then the block count (24 bits, little
//       endian). The solution is the blocks * 128 slots by r or r + 1 bits
//       each (the wider blocks first); a query compares an r- or
//       (r+1)-bit fingerprint: FP 2^-r or 2^-(r+1).
//   1..30  legacy Bloom: k, then the line count (fixed32); lines of equal
//       power-of-two bytes (64 where it divides). A blocked Bloom filter
//       whose 32-bit hash adds n / 2^32 (an absent key alike in all 32 bits).
// Anything else reads as "may match".
#ifndef SSTFILTER_TOOLS_BUILTIN_FILTER_H_
#define SSTFILTER_TOOLS_BUILTIN_FILTER_H_

#include <string_view>

#include "filter/encoding_info.h"

namespace sstfilter {

inline constexpr std::string_view kRocksDbBuiltinFilterName = "rocksdb.BuiltinBloomFilter";

// Never fails: malformed bytes are a kMatchEverything description.
FilterDescription DescribeRocksDbBuiltinFilter(std::string_view filter);

// Whether the bytes are a Ribbon filter (metadata marker -2), well formed
// or not.
bool IsRocksDbRibbonFilter(std::string_view filter);

}  // namespace sstfilter

#endif  // SSTFILTER_TOOLS_BUILTIN_FILTER_H_
