// Helpers the filter unit tests share: keys (the benchmarks' key shapes,
// bench/key_shapes.h, as owned strings; random byte strings of any length),
// hex dumps, string_view lists, a filter built from keys, and exactly sized heap copies for
// AddressSanitizer (ExactBytes, tests/exact_bytes.h).
#ifndef SSTFILTER_TESTS_FILTER_TEST_UTIL_H_
#define SSTFILTER_TESTS_FILTER_TEST_UTIL_H_

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/escaping.h"
#include "bench/key_shapes.h"
#include "tests/exact_bytes.h"

namespace sstfilter::testing {

using bench::KeyShape;

// Key number i of a shape (distinct i, distinct keys).
inline std::string ShapedKey(KeyShape shape, uint64_t i) {
  std::string key;
  bench::AppendKey(shape, i, &key);
  return key;
}

// Keys first .. first + n - 1 of a shape.
inline std::vector<std::string> ShapedKeys(KeyShape shape, uint64_t first, size_t n) {
  std::vector<std::string> keys;
  keys.reserve(n);
  for (size_t i = 0; i < n; ++i) keys.push_back(ShapedKey(shape, first + i));
  return keys;
}

// A key of 0..max_len arbitrary bytes (every hash tail length, the empty key).
inline std::string RandomBytesKey(size_t max_len, std::mt19937_64& rng) {
  std::string key(rng() % (max_len + 1), '\0');
  for (char& c : key) c = static_cast<char>(rng());
  return key;
}

inline std::vector<std::string> RandomBytesKeys(size_t n, size_t max_len, std::mt19937_64& rng) {
  std::vector<std::string> keys(n);
  for (std::string& key : keys) key = RandomBytesKey(max_len, rng);
  return keys;
}

// Lowercase hex of some bytes (readable failures, pinned bytes).
inline std::string Hex(std::string_view bytes) {
  return absl::BytesToHexString(absl::string_view(bytes.data(), bytes.size()));
}

inline std::vector<std::string_view> Views(const std::vector<std::string>& keys) {
  return std::vector<std::string_view>(keys.begin(), keys.end());
}

// The filter a Builder (constructed from builder_args) writes for keys.
template <typename Builder, typename... Args>
std::string BuildFilter(const std::vector<std::string>& keys, Args... builder_args) {
  Builder builder(builder_args...);
  for (const std::string& key : keys) builder.AddKey(key);
  std::string filter;
  builder.Finish(&filter);
  return filter;
}

// ---- FP-rate statistics ----

// FP tests accept a measured rate within kFpSigmas standard errors of the
// expected one. A normal deviate beyond 6 sigma has probability 2e-9 (two-
// sided), so even a few hundred such comparisons per run fail by chance with
// probability below 1e-6; the samples are sized so that one probe more or
// less (k +- 1) lands well outside.
inline constexpr double kFpSigmas = 6;

// The mean of per-filter FP rates and the variance of that mean, estimated
// from their spread: it includes the binomial noise of the queries and the
// filters' own variation (their fill differs), whatever the model.
struct FpMean {
  double mean = 0;
  double variance_of_mean = 0;
};

inline FpMean MeanOf(const std::vector<double>& rates) {
  FpMean m;
  if (rates.empty()) return m;
  for (double r : rates) m.mean += r;
  m.mean /= rates.size();
  if (rates.size() > 1) {
    double sum_sq = 0;
    for (double r : rates) sum_sq += (r - m.mean) * (r - m.mean);
    m.variance_of_mean = sum_sq / (rates.size() - 1) / rates.size();
  }
  return m;
}

}  // namespace sstfilter::testing

#endif  // SSTFILTER_TESTS_FILTER_TEST_UTIL_H_
