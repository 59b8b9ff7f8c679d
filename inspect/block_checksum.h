// Checksums of block-based table blocks, as RocksDB writes them: every block
// is followed by a 5-byte trailer, the compression type byte and a
// little-endian fixed32 checksum of the block's bytes followed by that type
// byte, plus (format_version 6) a context modifier that ties the checksum to
// the file and the block's offset. By the footer's checksum type:
//   1  CRC32C, masked: rotate right by 15 bits, then add 0xa282ead8
//   2  XXH32, seed 0
//   3  the low 32 bits of XXH64, seed 0
//   4  the low 32 bits of XXH3-64 of the block's bytes alone, xor
//      (type byte * 0x6b9083d9)
//   0  no checksum
// Pure functions: no I/O, no allocation.
#ifndef SSTFILTER_INSPECT_BLOCK_CHECKSUM_H_
#define SSTFILTER_INSPECT_BLOCK_CHECKSUM_H_

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

// What format_version 6 adds to the checksum of the block (or footer) at
// `offset`, given the footer's base context checksum: base xor (the low plus
// the high 32 bits of the offset), wrapping; 0 when base is 0 (formats
// before 6).
inline uint32_t ContextChecksumModifier(uint32_t base_context_checksum, uint64_t offset) {
  if (base_context_checksum == 0) return 0;
  return base_context_checksum ^
         (static_cast<uint32_t>(offset) + static_cast<uint32_t>(offset >> 32));
}

}  // namespace sstfilter

#endif  // SSTFILTER_INSPECT_BLOCK_CHECKSUM_H_
