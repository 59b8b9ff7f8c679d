#include "filter/leveldb/fast_mod.h"

#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace sstfilter {
namespace {

void ExpectExact(uint64_t d, std::mt19937_64& rng) {
  const FastMod32 mod(d);
  std::vector<uint32_t> values = {0, 1, 2, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff};
  for (uint64_t near : {d - 1, d, d + 1, 2 * d - 1, 2 * d, 2 * d + 1}) {
    if (near <= 0xffffffff) values.push_back(static_cast<uint32_t>(near));
  }
  for (int i = 0; i < 2000; ++i) values.push_back(static_cast<uint32_t>(rng()));
  for (uint32_t a : values) {
    ASSERT_EQ(mod.Mod(a), a % d) << a << " % " << d;
  }
}

TEST(FastMod32Test, EqualsRemainderForSpecialDivisors) {
  std::mt19937_64 rng(1);
  // Filter bit counts are multiples of 8 from 64 up; also odd and extreme ones.
  for (uint64_t d : {uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{7}, uint64_t{8},
                     uint64_t{64}, uint64_t{72}, uint64_t{1000}, uint64_t{0x7fffffff},
                     uint64_t{0x80000000}, uint64_t{0xfffffff8}, uint64_t{0xffffffff},
                     uint64_t{1} << 32, (uint64_t{1} << 32) + 8, uint64_t{1} << 40}) {
    ExpectExact(d, rng);
  }
}

TEST(FastMod32Test, EqualsRemainderForRandomDivisors) {
  std::mt19937_64 rng(2);
  for (int i = 0; i < 300; ++i) {
    const int bits = 1 + static_cast<int>(rng() % 32);  // Divisors of every magnitude.
    const uint64_t d = 1 + rng() % (uint64_t{1} << bits);
    ExpectExact(d, rng);
  }
}

}  // namespace
}  // namespace sstfilter
