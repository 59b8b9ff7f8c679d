// Helpers for DB-level tests: a RocksDB in a fresh temporary directory,
// deterministic key sets, reading every written key back, and filter
// statistics.
#ifndef SSTFILTER_TESTS_DB_TEST_UTIL_H_
#define SSTFILTER_TESTS_DB_TEST_UTIL_H_

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/types/span.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"

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

// Every key reads back value_for(key), through Get and through MultiGet in
// batches of 32 (the filters' batched path): no false negatives. `stage`
// names the moment in failure messages.
inline void ExpectAllFound(rocksdb::DB* db, absl::Span<const std::string> keys,
                           const std::string& stage,
                           std::string (*value_for)(const std::string&) = ValueFor) {
  std::string value;
  for (size_t i = 0; i < keys.size(); ++i) {
    const rocksdb::Status s = db->Get(rocksdb::ReadOptions(), keys[i], &value);
    ASSERT_TRUE(s.ok()) << stage << ": key " << i << ": " << s.ToString();
    ASSERT_EQ(value, value_for(keys[i])) << stage << ": key " << i;
  }
  for (size_t base = 0; base < keys.size(); base += 32) {
    std::vector<rocksdb::Slice> batch;
    for (size_t i = base; i < std::min(base + 32, keys.size()); ++i) batch.emplace_back(keys[i]);
    std::vector<rocksdb::PinnableSlice> values(batch.size());
    std::vector<rocksdb::Status> statuses(batch.size());
    db->MultiGet(rocksdb::ReadOptions(), db->DefaultColumnFamily(), batch.size(), batch.data(),
                 values.data(), statuses.data());
    for (size_t i = 0; i < batch.size(); ++i) {
      ASSERT_TRUE(statuses[i].ok())
          << stage << " MultiGet: key " << base + i << ": " << statuses[i].ToString();
      ASSERT_EQ(values[i].ToString(), value_for(keys[base + i]))
          << stage << " MultiGet: key " << base + i;
    }
  }
}

// A leveled tree of small tables (128 KiB memtables and tables, a 256 KiB
// base level, multiplier 4, dynamic level bytes, no compression): 50,000
// keys of ~130 bytes reach L6 in a few hundred tables.
inline void UseSmallLeveledTree(rocksdb::Options* options) {
  options->level_compaction_dynamic_level_bytes = true;
  options->write_buffer_size = 128 << 10;
  options->target_file_size_base = 128 << 10;
  options->max_bytes_for_level_base = 256 << 10;
  options->max_bytes_for_level_multiplier = 4;
  options->compression = rocksdb::kNoCompression;
}

// The filter bytes of the DB's live tables, by their properties.
inline uint64_t LiveFilterBytes(rocksdb::DB* db) {
  rocksdb::TablePropertiesCollection tables;
  EXPECT_TRUE(db->GetPropertiesOfAllTables(&tables).ok());
  uint64_t bytes = 0;
  for (const auto& table : tables) bytes += table.second->filter_size;
  return bytes;
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

// Returns once no flush or compaction is pending or running. RocksDB can
// report a compaction pending that it never schedules (its picker wants
// one it cannot pick): nothing running for 10 ms counts as done.
inline void WaitForBackgroundWork(rocksdb::DB* db) {
  auto idle_since = std::chrono::steady_clock::now();
  for (;;) {
    uint64_t pending = 0, compactions = 0, flush_pending = 0, flushes = 0;
    ASSERT_TRUE(db->GetIntProperty("rocksdb.compaction-pending", &pending));
    ASSERT_TRUE(db->GetIntProperty("rocksdb.num-running-compactions", &compactions));
    ASSERT_TRUE(db->GetIntProperty("rocksdb.mem-table-flush-pending", &flush_pending));
    ASSERT_TRUE(db->GetIntProperty("rocksdb.num-running-flushes", &flushes));
    const auto now = std::chrono::steady_clock::now();
    if (compactions + flush_pending + flushes > 0) {
      idle_since = now;
    } else if (pending == 0 || now - idle_since > std::chrono::milliseconds(10)) {
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace sstfilter::testing

#endif  // SSTFILTER_TESTS_DB_TEST_UTIL_H_
