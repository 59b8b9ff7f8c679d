// Exact `a % d` for 32-bit `a` without a division instruction.
//
// Lemire, Kaser, Kurz, "Faster Remainder by Direct Computation" (2019):
// with M = ceil(2^64 / d), a % d == ((M * a) mod 2^64) * d >> 64 for every
// 32-bit a and 1 <= d < 2^32. The LevelDB format computes `h % bits` k times
// per key; one precomputed M turns each into two multiplications.
//
// Divisors >= 2^32 (filters of 512 MiB and more) leave every 32-bit `a`
// unchanged, which is also what `%` gives; that case is kept exact.
#ifndef SSTFILTER_FILTER_LEVELDB_FAST_MOD_H_
#define SSTFILTER_FILTER_LEVELDB_FAST_MOD_H_

#include <cstdint>

namespace sstfilter {

class FastMod32 {
 public:
  // REQUIRES: d >= 1.
  explicit FastMod32(uint64_t d)
      : d_(d < (uint64_t{1} << 32) ? static_cast<uint32_t>(d) : 0),
        m_(d_ == 0 ? 0 : ~uint64_t{0} / d_ + 1) {}

  uint32_t Mod(uint32_t a) const {
    if (d_ == 0) return a;  // Divisor >= 2^32.
    const uint64_t low = m_ * a;
    return static_cast<uint32_t>(
        (static_cast<unsigned __int128>(low) * d_) >> 64);
  }

 private:
  uint32_t d_;  // 0 means "divisor >= 2^32".
  uint64_t m_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_LEVELDB_FAST_MOD_H_
