#include "filter/bloom_math.h"

#include <algorithm>
#include <cmath>

namespace sstfilter {

int LevelDbNumProbes(double bits_per_key) {
  // Same expression as LevelDB: a double product truncated to an integer.
  const auto k = static_cast<long>(bits_per_key * 0.69);
  return static_cast<int>(std::clamp(k, 1L, 30L));
}

size_t LevelDbFilterBits(size_t num_keys, double bits_per_key) {
  // For integral bits_per_key this is LevelDB's `n * bits_per_key` exactly.
  auto bits = static_cast<size_t>(static_cast<double>(num_keys) * bits_per_key);
  bits = std::max<size_t>(bits, 64);  // Tiny n: a very high FP rate otherwise.
  return (bits + 7) / 8 * 8;
}

double BitsPerKeyForFpRate(double fp_rate) {
  const double ln2 = std::log(2.0);
  return -std::log(fp_rate) / (ln2 * ln2);
}

int OptimalNumProbes(double bits_per_key) {
  return std::max(1, static_cast<int>(std::lround(bits_per_key * std::log(2.0))));
}

double StandardBloomFpRate(double num_keys, double num_bits, int num_probes) {
  if (num_keys <= 0) return 0.0;
  if (num_bits <= 0) return 1.0;
  return std::pow(-std::expm1(-num_probes * num_keys / num_bits), num_probes);
}

double LevelDbFilterFpRate(double num_keys, double num_bits, int num_probes) {
  if (!(num_keys > 0)) return 0.0;
  return WithHash32Collisions(
      StandardBloomFpRate(num_keys, LevelDbReachableBits(num_bits), num_probes), num_keys);
}

double LevelDbExpectedFpRate(size_t num_keys, double bits_per_key) {
  return LevelDbFilterFpRate(static_cast<double>(num_keys),
                             static_cast<double>(LevelDbFilterBits(num_keys, bits_per_key)),
                             LevelDbNumProbes(bits_per_key));
}

double Hash32CollisionRate(double num_keys) {
  if (!(num_keys > 0)) return 0.0;
  return -std::expm1(num_keys * std::log1p(-1.0 / 4294967296.0));
}

double WithHash32Collisions(double bloom_fp, double num_keys) {
  return std::min(1.0, bloom_fp + (1.0 - bloom_fp) * Hash32CollisionRate(num_keys));
}

}  // namespace sstfilter
