#include "filter/cache_local/math.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <mutex>

#include "filter/cache_local/probes.h"

namespace sstfilter {

namespace {

// ln |Gamma(x)| without std::lgamma's write to the global signgam: builders
// on several threads evaluate these models at once (TSan found the race).
double LogGamma(double x) {
  int sign = 0;
  return ::lgamma_r(x, &sign);
}

}  // namespace

uint64_t CacheLocalNumLines(size_t num_keys, double bits_per_key) {
  if (num_keys == 0) return 0;
  const double lines =
      std::ceil(static_cast<double>(num_keys) * bits_per_key / cache_local::kLineBits);
  if (lines >= static_cast<double>(cache_local::kMaxLines)) return cache_local::kMaxLines;
  return std::max<uint64_t>(1, static_cast<uint64_t>(lines));
}

CacheLocalShape CacheLocalFilterShape(size_t num_keys, double bits_per_key) {
  CacheLocalShape shape;
  shape.num_lines = CacheLocalNumLines(num_keys, bits_per_key);
  if (shape.num_lines == 0 || shape.num_lines > kMaxNarrowLines) return shape;
  const double bytes_per_line =
      std::ceil(static_cast<double>(num_keys) * bits_per_key / 8.0 /
                static_cast<double>(shape.num_lines));
  // In [1, 64]: the line count is ceil(bits / 512), so each line needs at
  // most 64 bytes (the clamp only guards rounding).
  shape.line_bytes = static_cast<uint32_t>(
      std::clamp(bytes_per_line, 1.0, static_cast<double>(cache_local::kLineBytes)));
  return shape;
}

std::optional<CacheLocalShape> CacheLocalShapeOfArray(uint64_t array_bytes) {
  CacheLocalShape shape;
  shape.num_lines = (array_bytes + cache_local::kLineBytes - 1) / cache_local::kLineBytes;
  if (array_bytes % cache_local::kLineBytes == 0) return shape;
  if (shape.num_lines > kMaxNarrowLines || array_bytes % shape.num_lines != 0) {
    return std::nullopt;
  }
  shape.line_bytes = static_cast<uint32_t>(array_bytes / shape.num_lines);
  return shape;
}

namespace {

// FP rate of n keys over `lines` lines of line_bits bits, each key in a line
// chosen uniformly: sum over loads j of Binomial(j; n, 1/lines) times the
// rate of a standard Bloom filter of line_bits bits holding j keys. Walks
// from the mode both ways by recurrence, like BlockedBloomFpRate.
double BinomialBlockedFpRate(size_t num_keys, uint64_t lines, uint32_t line_bits,
                             int num_probes) {
  const double keep_per_key = std::pow(1.0 - 1.0 / line_bits, num_probes);
  const auto line_fp = [num_probes](double clear_fraction) {
    return std::pow(1.0 - clear_fraction, num_probes);
  };
  const auto n = static_cast<double>(num_keys);
  // Saturated lines (see BlockedBloomFpRate); also bounds the walk below.
  if (n >= 64.0 * line_bits * static_cast<double>(lines)) return 1.0;
  if (lines == 1) return line_fp(std::pow(keep_per_key, n));
  const double p = 1.0 / static_cast<double>(lines);
  const auto mode = static_cast<size_t>(std::floor((n + 1) * p));
  const auto m = static_cast<double>(mode);
  const double mode_pmf = std::exp(LogGamma(n + 1) - LogGamma(m + 1) -
                                   LogGamma(n - m + 1) + m * std::log(p) +
                                   (n - m) * std::log1p(-p));
  const double odds = p / (1 - p);
  double fp = mode_pmf * line_fp(std::pow(keep_per_key, m));
  double pmf = mode_pmf;
  for (size_t j = mode; j < num_keys && pmf > 1e-18 * mode_pmf; ++j) {
    pmf *= static_cast<double>(num_keys - j) / static_cast<double>(j + 1) * odds;
    fp += pmf * line_fp(std::pow(keep_per_key, static_cast<double>(j + 1)));
  }
  pmf = mode_pmf;
  for (size_t j = mode; j > 0 && pmf > 1e-18 * mode_pmf; --j) {
    pmf *= static_cast<double>(j) / static_cast<double>(num_keys - j + 1) / odds;
    fp += pmf * line_fp(std::pow(keep_per_key, static_cast<double>(j - 1)));
  }
  return std::min(fp, 1.0);
}

}  // namespace

double BlockedBloomFpRate(double keys_per_line, int num_probes) {
  if (keys_per_line <= 0) return 0.0;
  // From this many keys per line on, a line keeps a bit clear with
  // probability below (1 - 1/512)^32768 < e^-64: the FP rate is 1 to double
  // precision. Returning early also keeps the Poisson walk below finite (its
  // term count grows with lambda) and the mode within int range (bits_per_key
  // down to 1e-300 is a valid, if useless, setting). No probes: all match.
  constexpr double kSaturatedKeysPerLine = 64.0 * cache_local::kLineBits;
  if (keys_per_line >= kSaturatedKeysPerLine || num_probes <= 0) return 1.0;
  const double lambda = keys_per_line;
  // Terms are computed by recurrence (no exp/pow per term): the builder
  // evaluates this for many k and must stay cheap. Start at the Poisson mode
  // (where the pmf cannot underflow) and walk both ways until the terms no
  // longer matter.
  const double keep_per_key = std::pow(1.0 - 1.0 / cache_local::kLineBits, num_probes);
  const auto fp_at = [num_probes](double clear_fraction) {
    double set = 1.0 - clear_fraction, p = 1.0;
    for (int i = 0; i < num_probes; ++i) p *= set;
    return p;
  };
  const auto mode = static_cast<int>(lambda);
  const double mode_pmf =
      std::exp(mode * std::log(lambda) - lambda - LogGamma(mode + 1.0));
  const double mode_clear = std::pow(keep_per_key, mode);
  double fp = mode_pmf * fp_at(mode_clear);
  double pmf = mode_pmf, clear = mode_clear;
  for (int load = mode + 1; pmf > 1e-18 * mode_pmf || load < lambda + 10; ++load) {
    pmf *= lambda / load;
    clear *= keep_per_key;
    fp += pmf * fp_at(clear);
  }
  pmf = mode_pmf;
  clear = mode_clear;
  for (int load = mode; load > 0 && pmf > 1e-18 * mode_pmf; --load) {
    pmf *= load / lambda;  // Poisson(load - 1) from Poisson(load).
    clear /= keep_per_key;
    fp += pmf * fp_at(clear);
  }
  return std::min(fp, 1.0);
}

int CacheLocalNumProbes(double bits_per_key) {
  // Memoised: every builder asks, and a partitioned or per-SST build makes
  // many builders with the same bits/key. Forgotten all at once when full
  // (models searching over settings ask for many).
  static std::mutex mu;
  static std::map<double, int>* memo = new std::map<double, int>();
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = memo->find(bits_per_key);
    if (it != memo->end()) return it->second;
  }
  const double lambda = cache_local::kLineBits / bits_per_key;
  double fp[cache_local::kMaxProbes + 1];
  std::fill(std::begin(fp), std::end(fp), -1.0);  // Not computed.
  auto fp_of = [&](int k) {
    if (fp[k] < 0) fp[k] = BlockedBloomFpRate(lambda, k);
    return fp[k];
  };
  // The FP rate is unimodal in k: `last`, the first k whose rate is above
  // k - 1's (kMaxProbes + 1 if none), found by walking from near a
  // standard Bloom filter's optimum, ln 2 * bits/key (below it the rates
  // do not rise, from it on they do not fall).
  const int guess = static_cast<int>(
      std::clamp(std::round(0.6931471805599453 * bits_per_key), 2.0,
                 static_cast<double>(cache_local::kMaxProbes)));
  int last = guess;
  if (fp_of(last) > fp_of(last - 1)) {
    while (last > 2 && fp_of(last - 1) > fp_of(last - 2)) --last;
  } else {
    while (last <= cache_local::kMaxProbes && !(fp_of(last) > fp_of(last - 1))) ++last;
  }
  // The rates fall to last - 1, the minimum, which is flat (at 10 bits/key
  // k = 6 and 7 differ by 0.05%) while every probe costs time: take the
  // fewest probes within kProbeTolerance of the minimum.
  const double best_fp = fp_of(last - 1);
  int k = last - 1;
  while (k > 1 && fp_of(k - 1) <= best_fp * (1 + kProbeTolerance)) --k;
  std::lock_guard<std::mutex> lock(mu);
  if (memo->size() >= 1024) memo->clear();
  (*memo)[bits_per_key] = k;
  return k;
}

double CacheLocalExpectedFpRate(size_t num_keys, double bits_per_key) {
  return CacheLocalFilterFpRate(num_keys, CacheLocalFilterShape(num_keys, bits_per_key),
                                CacheLocalNumProbes(bits_per_key));
}

double CacheLocalFilterFpRate(size_t num_keys, CacheLocalShape shape, int num_probes) {
  if (num_keys == 0) return 0.0;
  if (shape.num_lines == 0 || shape.line_bytes == 0 || num_probes <= 0) return 1.0;
  if (shape.num_lines <= kMaxNarrowLines) {  // Also every narrow shape.
    return BinomialBlockedFpRate(num_keys, shape.num_lines, shape.line_bytes * 8, num_probes);
  }
  return BlockedBloomFpRate(static_cast<double>(num_keys) / static_cast<double>(shape.num_lines),
                            num_probes);
}

}  // namespace sstfilter
