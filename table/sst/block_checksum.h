// Checksums of block-based table blocks, as RocksDB (format_version <= 5)
// writes them: every block is followed by a 5-byte trailer, the compression
// type byte and a little-endian fixed32 checksum of the block's bytes
// followed by that type byte. By the footer's checksum type:
//   1  CRC32C, masked: rotate right by 15 bits, then add 0xa282ead8
//   2  XXH32, seed 0
//   3  the low 32 bits of XXH64, seed 0
//   4  the low 32 bits of XXH3-64 of the block's bytes alone, xor
//      (type byte * 0x6b9083d9)
//   0  no checksum
// Pure functions: no I/O, no allocation.
#ifndef SSTFILTER_TABLE_SST_BLOCK_CHECKSUM_H_
#define SSTFILTER_TABLE_SST_BLOCK_CHECKSUM_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace sstfilter {

// CRC-32C (Castagnoli) of data, continuing from `crc` (the CRC of what came
// before; 0 to start). Uses the SSE4.2 crc32 instruction when the CPU has it.
uint32_t Crc32c(std::string_view data, uint32_t crc = 0);
// The bitwise CRC-32C Crc32c falls back to without SSE4.2; declared so that
// tests run it on every machine.
uint32_t Crc32cPortable(std::string_view data, uint32_t crc = 0);

// The trailer checksum of a block whose bytes are `block` and whose
// compression type byte is `type_byte`, or nullopt for a checksum type this
// reader does not know (types above 4, or 0: nothing to check).
std::optional<uint32_t> BlockChecksum(uint8_t checksum_type, std::string_view block,
                                      char type_byte);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_SST_BLOCK_CHECKSUM_H_
