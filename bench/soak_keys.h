// The soak's keys, generated on demand instead of stored: key i of a stream
// is a pure function of (stream seed, i), so a filter of 10^7 keys is
// built and then checked without holding its keys in memory.
//
// Keys are 4 to 64 random bytes. Present and absent streams never share a
// key: the low bit of the first byte is 0 in present keys, 1 in absent ones.
#ifndef SSTFILTER_BENCH_SOAK_KEYS_H_
#define SSTFILTER_BENCH_SOAK_KEYS_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace sstfilter::bench {

class SoakKeyStream {
 public:
  static constexpr size_t kMinLength = 4;
  static constexpr size_t kMaxLength = 64;

  SoakKeyStream(uint64_t seed, bool present) : seed_(seed), present_(present) {}

  // Writes key i into out (kMaxLength bytes) and returns its length.
  size_t Key(uint64_t i, char* out) const {
    uint64_t state = seed_ ^ (i * 0xD1B54A32D192ED03ULL);
    const uint64_t first = Mix(state);
    const size_t length = kMinLength + first % (kMaxLength - kMinLength + 1);
    for (size_t at = 0; at < length; at += 8) {
      const uint64_t word = Mix(state);
      std::memcpy(out + at, &word, 8);  // out has room up to kMaxLength.
    }
    out[0] = static_cast<char>((out[0] & ~1) | (present_ ? 0 : 1));
    return length;
  }

 private:
  // SplitMix64 (Steele, Lea, Flood 2014): a full-period generator whose
  // outputs pass BigCrush; plenty for random keys.
  static uint64_t Mix(uint64_t& state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  uint64_t seed_;
  bool present_;
};

// A chunk of keys of one stream, laid out for the batched query path.
class SoakKeyChunk {
 public:
  explicit SoakKeyChunk(size_t capacity) : bytes_(capacity * SoakKeyStream::kMaxLength) {
    keys_.reserve(capacity);
  }
  // Replaces the chunk with keys [first, first + n) of stream.
  // REQUIRES: n <= capacity.
  void Fill(const SoakKeyStream& stream, uint64_t first, size_t n) {
    keys_.clear();
    for (size_t j = 0; j < n; ++j) {
      char* at = bytes_.data() + j * SoakKeyStream::kMaxLength;
      keys_.emplace_back(at, stream.Key(first + j, at));
    }
  }
  const std::vector<std::string_view>& keys() const { return keys_; }

 private:
  std::vector<char> bytes_;
  std::vector<std::string_view> keys_;
};

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_SOAK_KEYS_H_
