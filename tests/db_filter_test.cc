// End to end in a real RocksDB: every written key is found in every filter
// mode (no false negatives through flush, compaction and reopen), and absent
// keys are answered by the filter without reading a data block.
#include <memory>
#include <string>
#include <vector>

#include "db_test_util.h"
#include "filter/bloom_math.h"
#include "filter/encodings.h"
#include "gtest/gtest.h"
#include "rocksdb/slice_transform.h"
#include "table/census/open_db.h"
#include "table/rocksdb/registration.h"
#include "table/rocksdb/rocksdb_filter_policy.h"

namespace sstfilter {
namespace {

using testing::AbsentKeys;
using testing::BinomialLowerBound;
using testing::BinomialUpperBound;
using testing::RandomKeys;
using testing::TempDir;
using testing::ValueFor;

enum class PrefixMode { kNone, kPrefixAndWholeKey, kPrefixOnly };

struct DbMode {
  EncodingId encoding;
  bool partitioned;
  PrefixMode prefix;
  bool cache_filter_blocks;
};

// "leveldb_full_no_prefix_pinned", "cache_local_partitioned_prefix_only_cached".
std::string ModeName(const ::testing::TestParamInfo<DbMode>& info) {
  const DbMode& m = info.param;
  const char* prefix[] = {"no_prefix", "prefix_and_whole_key", "prefix_only"};
  return std::string(EncodingName(m.encoding)) + (m.partitioned ? "_partitioned_" : "_full_") +
         prefix[static_cast<int>(m.prefix)] + (m.cache_filter_blocks ? "_cached" : "_pinned");
}

// Expected FP of one filter holding n keys at 10 bits/key in this format.
double ExpectedFp(EncodingId encoding, size_t n) {
  return VisitEncoding(encoding, [n](auto e) {
    return decltype(e)::kInfo.expected_fp_rate(n, 10.0);
  });
}

class DbFilterTest : public ::testing::TestWithParam<DbMode> {
 protected:
  static constexpr size_t kNumKeys = 20000;
  static constexpr size_t kNumFlushes = 4;
  static constexpr size_t kNumAbsent = 20000;

  rocksdb::Options MakeOptions() {
    const DbMode& mode = GetParam();
    FilterOptions bloom;
    bloom.bits_per_key = 10;
    bloom.encoding = mode.encoding;
    rocksdb::BlockBasedTableOptions table;
    table.filter_policy = NewRocksDbFilterPolicy(bloom).value();
    table.cache_index_and_filter_blocks = mode.cache_filter_blocks;
    table.whole_key_filtering = mode.prefix != PrefixMode::kPrefixOnly;
    if (mode.partitioned) {
      table.partition_filters = true;
      table.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
      table.metadata_block_size = 1024;  // Many partitions even for 20k keys.
    }
    rocksdb::Options options;
    options.create_if_missing = true;
    options.statistics = rocksdb::CreateDBStatistics();
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    if (mode.prefix != PrefixMode::kNone) {
      // 4 random bytes: absent keys' prefixes are absent too (p ~ 20000/2^32).
      options.prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(4));
    }
    return options;
  }

  void Open() {
    options_ = MakeOptions();
    ASSERT_TRUE(OpenDb(options_, dir_.path(), &db_).ok());
  }

  void ExpectAllFound(const char* stage) {
    ASSERT_NO_FATAL_FAILURE(testing::ExpectAllFound(db_.get(), keys_, stage));
    // Iterators do not consult the filter for full scans: all keys, in order.
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
    size_t count = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) ++count;
    ASSERT_TRUE(it->status().ok());
    EXPECT_EQ(count, keys_.size()) << stage;
  }

  TempDir dir_;
  rocksdb::Options options_;
  std::unique_ptr<rocksdb::DB> db_;
  std::vector<std::string> keys_ = RandomKeys(kNumKeys, 42);
};

TEST_P(DbFilterTest, NoFalseNegativesThroughFlushCompactionReopen) {
  Open();
  const size_t per_flush = keys_.size() / kNumFlushes;
  for (size_t i = 0; i < keys_.size(); ++i) {
    ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), keys_[i], ValueFor(keys_[i])).ok());
    if ((i + 1) % per_flush == 0) {
      ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
    }
  }
  ExpectAllFound("after flushes");
  ASSERT_TRUE(db_->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr).ok());
  ExpectAllFound("after compaction");
  db_.reset();
  Open();
  ExpectAllFound("after reopen");
}

TEST_P(DbFilterTest, AbsentKeysSkipDataBlocks) {
  Open();
  for (const std::string& key : keys_) {
    ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), key, ValueFor(key)).ok());
  }
  ASSERT_TRUE(db_->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr).ok());
  db_.reset();
  Open();  // One SST; every absent Get consults exactly one filter.

  const std::vector<std::string> absent = AbsentKeys(kNumAbsent, 7);
  const uint64_t data_reads_before = testing::Ticker(options_, rocksdb::BLOCK_CACHE_DATA_MISS);
  std::string value;
  for (const std::string& key : absent) {
    ASSERT_TRUE(db_->Get(rocksdb::ReadOptions(), key, &value).IsNotFound());
  }
  const uint64_t data_reads =
      testing::Ticker(options_, rocksdb::BLOCK_CACHE_DATA_MISS) - data_reads_before;

  const uint64_t useful =
      testing::Ticker(options_, rocksdb::BLOOM_FILTER_USEFUL) +
      testing::Ticker(options_, rocksdb::BLOOM_FILTER_PREFIX_USEFUL);
  const double expected_fp = ExpectedFp(GetParam().encoding, keys_.size());
  const double passed = static_cast<double>(kNumAbsent - useful);
  // Filter positives on absent keys are false positives: near the theory.
  // Upper: the LevelDB scheme runs above the ideal-hash formula (measured
  // +8% to +30% here: its probes are correlated), hence 1.5x. Lower: no
  // correct 10 bits/key filter beats the formula by more than noise
  // (measured 169..219 positives; this bound is 101 for LevelDB, 119 for
  // cache-local); a filter that answers "absent" without probing, or one
  // built with twice the bits, falls below it.
  EXPECT_LE(passed, BinomialUpperBound(kNumAbsent, 1.5 * expected_fp))
      << "measured FP " << passed / kNumAbsent << ", expected " << expected_fp;
  EXPECT_GE(passed, BinomialLowerBound(kNumAbsent, expected_fp))
      << "suspiciously few positives: measured FP " << passed / kNumAbsent
      << ", expected " << expected_fp;
  // Data blocks are read only for false positives (each reads at most one).
  // Counted as data-block cache misses: index and filter partitions, whose
  // loads vary with the RocksDB version, are not data.
  EXPECT_LE(static_cast<double>(data_reads), passed) << "data block reads " << data_reads;
  EXPECT_GT(data_reads, 0u) << "no data block read: the count is not measuring reads";
}

std::vector<DbMode> AllModes() {
  std::vector<DbMode> modes;
  for (EncodingId encoding : AllEncodingIds()) {
    for (bool partitioned : {false, true}) {
      for (PrefixMode prefix :
           {PrefixMode::kNone, PrefixMode::kPrefixAndWholeKey, PrefixMode::kPrefixOnly}) {
        for (bool cached : {false, true}) {
          modes.push_back({encoding, partitioned, prefix, cached});
        }
      }
    }
  }
  return modes;
}

INSTANTIATE_TEST_SUITE_P(Modes, DbFilterTest, ::testing::ValuesIn(AllModes()), ModeName);

}  // namespace
}  // namespace sstfilter
