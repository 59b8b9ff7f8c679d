#include "inspect/block_checksum.h"

#define XXH_STATIC_LINKING_ONLY  // XXH32_state_t / XXH64_state_t on the stack.
#include <xxhash.h>

#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace sstfilter {

// The bit-reversed Castagnoli polynomial 0x1EDC6F41.
constexpr uint32_t kCrc32cPolynomial = 0x82f63b78;

// One bit at a time: slow, but only for CPUs without SSE4.2.
uint32_t Crc32cPortable(std::string_view data, uint32_t crc) {
  crc = ~crc;
  for (unsigned char byte : data) {
    crc ^= byte;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (kCrc32cPolynomial & (0u - (crc & 1)));
  }
  return ~crc;
}

namespace {

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t Crc32cSse42(std::string_view data, uint32_t crc) {
  uint64_t c = ~crc;
  const char* p = data.data();
  size_t n = data.size();
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t word;
    std::memcpy(&word, p, sizeof(word));
    c = _mm_crc32_u64(c, word);
  }
  uint32_t c32 = static_cast<uint32_t>(c);
  for (; n > 0; ++p, --n) c32 = _mm_crc32_u8(c32, static_cast<unsigned char>(*p));
  return ~c32;
}
#endif

uint32_t MaskCrc(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }

}  // namespace

uint32_t Crc32c(std::string_view data, uint32_t crc) {
#if defined(__x86_64__)
  static const bool kHasSse42 = __builtin_cpu_supports("sse4.2");
  if (kHasSse42) return Crc32cSse42(data, crc);
#endif
  return Crc32cPortable(data, crc);
}

std::optional<uint32_t> BlockChecksum(uint8_t checksum_type, std::string_view block,
                                      char type_byte) {
  const std::string_view last(&type_byte, 1);
  switch (checksum_type) {
    case 1:
      return MaskCrc(Crc32c(last, Crc32c(block)));
    case 2: {
      XXH32_state_t state;
      XXH32_reset(&state, 0);
      XXH32_update(&state, block.data(), block.size());
      XXH32_update(&state, last.data(), 1);
      return XXH32_digest(&state);
    }
    case 3: {
      XXH64_state_t state;
      XXH64_reset(&state, 0);
      XXH64_update(&state, block.data(), block.size());
      XXH64_update(&state, last.data(), 1);
      return static_cast<uint32_t>(XXH64_digest(&state));
    }
    case 4:
      return static_cast<uint32_t>(XXH3_64bits(block.data(), block.size())) ^
             static_cast<uint32_t>(static_cast<unsigned char>(type_byte)) * 0x6b9083d9u;
    default:
      return std::nullopt;
  }
}

}  // namespace sstfilter
