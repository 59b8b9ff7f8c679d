// Helpers for DB-level tests: a RocksDB in a fresh temporary directory,
// deterministic key sets, and filter statistics.
#ifndef SSTFILTER_TESTS_DB_TEST_UTIL_H_
#define SSTFILTER_TESTS_DB_TEST_UTIL_H_

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"

namespace sstfilter::testing {

// A directory under $TMPDIR removed (with its DB) when the object dies.
class TempDir {
 public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "sstfilter_test_XXXXXX").string();
    path_ = mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// "Present" keys: 16 bytes from a seeded generator. Absent keys use another
// seed and a different length, so they are never equal to present ones.
inline std::vector<std::string> RandomKeys(size_t n, uint64_t seed, size_t length = 16) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> keys(n);
  for (std::string& key : keys) {
    key.resize(length);
    for (char& c : key) c = static_cast<char>(rng());
  }
  return keys;
}

inline std::vector<std::string> AbsentKeys(size_t n, uint64_t seed) {
  return RandomKeys(n, seed ^ 0xabcdef1234567ULL, 17);
}

inline std::string ValueFor(const std::string& key) {
  return absl::StrFormat("value-of-%d-%d", key.size(), static_cast<unsigned char>(key[0]));
}

inline uint64_t Ticker(const rocksdb::Options& options, rocksdb::Tickers ticker) {
  return options.statistics->getTickerCount(ticker);
}

// Bounds for a binomial count: mean +- (5 sigma + 3). A count outside them
// has probability below 1e-6 (5 sigma alone: 5.7e-7 two-sided; the 3 covers
// the normal approximation's error at small means), so a failure is a real
// defect, while a filter that stopped working (or one far larger than
// configured) lands far outside.
inline double BinomialUpperBound(double trials, double p) {
  return trials * p + 5.0 * std::sqrt(trials * p * (1.0 - p)) + 3.0;
}
inline double BinomialLowerBound(double trials, double p) {
  return trials * p - 5.0 * std::sqrt(trials * p * (1.0 - p)) - 3.0;
}

}  // namespace sstfilter::testing

#endif  // SSTFILTER_TESTS_DB_TEST_UTIL_H_
