#include "filter/cache_local_math.h"

#include <algorithm>
#include <cmath>

#include "filter/cache_local_probes.h"

namespace sstfilter {

uint64_t CacheLocalNumLines(size_t num_keys, double bits_per_key) {
  if (num_keys == 0) return 0;
  const double lines =
      std::ceil(static_cast<double>(num_keys) * bits_per_key / cache_local::kLineBits);
  if (lines >= static_cast<double>(cache_local::kMaxLines)) return cache_local::kMaxLines;
  return std::max<uint64_t>(1, static_cast<uint64_t>(lines));
}

double BlockedBloomFpRate(double keys_per_line, int num_probes) {
  if (keys_per_line <= 0) return 0.0;
  const double lambda = keys_per_line;
  const double k = num_probes;
  const double log_keep = std::log1p(-1.0 / cache_local::kLineBits);
  // Sum the Poisson terms out to where they no longer matter.
  const auto last = static_cast<int>(lambda + 12 * std::sqrt(lambda) + 40);
  double fp = 0.0;
  double log_pmf = -lambda;  // log Poisson(0; lambda).
  for (int load = 0; load <= last; ++load) {
    if (load > 0) log_pmf += std::log(lambda) - std::log(static_cast<double>(load));
    const double set_fraction = -std::expm1(k * load * log_keep);
    fp += std::exp(log_pmf) * std::pow(set_fraction, k);
  }
  return std::min(fp, 1.0);
}

int CacheLocalNumProbes(double bits_per_key) {
  const double lambda = cache_local::kLineBits / bits_per_key;
  double fp[cache_local::kMaxProbes + 1];
  double best_fp = 1.0;
  for (int k = 1; k <= cache_local::kMaxProbes; ++k) {
    fp[k] = BlockedBloomFpRate(lambda, k);
    best_fp = std::min(best_fp, fp[k]);
  }
  // The FP rate is flat near its minimum (at 10 bits/key k = 6 and 7 differ
  // by 0.05%) while every probe costs time: take the fewest probes within
  // kProbeTolerance of the minimum.
  for (int k = 1; k <= cache_local::kMaxProbes; ++k) {
    if (fp[k] <= best_fp * (1 + kProbeTolerance)) return k;
  }
  return cache_local::kMaxProbes;
}

double CacheLocalExpectedFpRate(size_t num_keys, double bits_per_key) {
  if (num_keys == 0) return 0.0;
  const uint64_t lines = CacheLocalNumLines(num_keys, bits_per_key);
  return BlockedBloomFpRate(static_cast<double>(num_keys) / static_cast<double>(lines),
                            CacheLocalNumProbes(bits_per_key));
}

}  // namespace sstfilter
