// Filters under concurrency, in a real RocksDB: reader threads Get and
// MultiGet keys while writer threads insert, flush and compact, so tables
// and their filters (full or partitioned, each format) are built, installed
// and dropped while other threads query them. Every key a writer has
// acknowledged is found (no false negative under concurrency), no absent key
// is found, and the filter did answer queries.
//
// Also run under ThreadSanitizer (tools/dev tsan-test), which checks that our
// builders and readers share no data unsynchronised.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <ostream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "db_test_util.h"
#include "filter/encoding_id.h"
#include "filter/filter_options.h"
#include "gtest/gtest.h"
#include "rocksdb/convenience.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/listener.h"
#include "rocksdb/table.h"
#include "table/census/open_db.h"
#include "table/rocksdb/registration.h"

namespace sstfilter {
namespace {

using testing::AbsentKeys;
using testing::RandomKeys;
using testing::TempDir;
using testing::ValueFor;

struct Mode {
  std::string encoding;  // Its name; names the test.
  std::string policy;    // filter_policy option string.
  bool partitioned;
};

// Every encoding of the list (filter/encodings.h) at 10 bits/key, full and
// partitioned.
std::vector<Mode> AllModes() {
  std::vector<Mode> modes;
  for (EncodingId encoding : AllEncodingIds()) {
    FilterOptions options;
    options.encoding = encoding;
    for (bool partitioned : {false, true}) {
      modes.push_back({std::string(EncodingName(encoding)), FormatPolicyId(options), partitioned});
    }
  }
  return modes;
}

// Failure messages name the mode, not its bytes.
void PrintTo(const Mode& mode, std::ostream* os) {
  *os << mode.policy << (mode.partitioned ? ", partitioned" : ", full");
}

// "leveldb_full", "cache_local_partitioned".
std::string ModeName(const ::testing::TestParamInfo<Mode>& info) {
  return info.param.encoding + (info.param.partitioned ? "_partitioned" : "_full");
}

// Sizes: small enough for a few seconds per case here and well under 20 s
// under ThreadSanitizer, large enough for dozens of tables built while
// readers run. 64 KiB memtables of ~40-byte entries flush every ~1500 keys.
constexpr int kWriters = 2;
constexpr int kReaders = 4;
constexpr size_t kKeysPerWriter = 4000;
constexpr size_t kKeysPerRound = 500;   // A writer flushes or compacts after each round.
constexpr size_t kPreloadedKeys = 1000;  // Written and flushed before any reader starts.
constexpr size_t kNumAbsent = 2000;
constexpr size_t kMultiGetBatch = 16;
constexpr size_t kWriteBufferSize = 64 << 10;

// What the readers saw; failures keep their first example for the message.
struct Tally {
  std::atomic<uint64_t> lookups{0};
  std::atomic<uint64_t> present_missed{0};  // Acknowledged key not found, or wrong value.
  std::atomic<uint64_t> absent_found{0};
  std::atomic<uint64_t> errors{0};  // Any status but OK / NotFound.
  std::mutex mu;
  std::string first_failure;

  void Fail(std::atomic<uint64_t>& counter, const std::string& what) {
    if (counter.fetch_add(1) == 0) {
      std::lock_guard<std::mutex> lock(mu);
      if (first_failure.empty()) first_failure = what;
    }
  }
};

// Counts the tables flushes and compactions write (each with its filter).
class TableCounter : public rocksdb::EventListener {
 public:
  void OnTableFileCreated(const rocksdb::TableFileCreationInfo& info) override {
    if (info.status.ok()) tables_.fetch_add(1);
  }
  uint64_t tables() const { return tables_.load(); }

 private:
  std::atomic<uint64_t> tables_{0};
};

class ConcurrencyTest : public ::testing::TestWithParam<Mode> {
 protected:
  void SetUp() override {
    EnsureRocksDbFilterPoliciesRegistered();
    rocksdb::ConfigOptions config;
    config.ignore_unknown_options = false;
    config.input_strings_escaped = false;  // Else RocksDB drops a bad policy silently.
    std::string table = std::string("filter_policy=") + GetParam().policy;
    if (GetParam().partitioned) {
      // Small partitions: several per table even for a few thousand keys.
      table += ";partition_filters=true;index_type=kTwoLevelIndexSearch;metadata_block_size=512";
    }
    rocksdb::Options base;
    base.create_if_missing = true;
    base.write_buffer_size = kWriteBufferSize;
    base.level0_file_num_compaction_trigger = 2;  // Background compactions too.
    base.max_background_jobs = 2;
    rocksdb::Status s = rocksdb::GetOptionsFromString(
        config, base, "block_based_table_factory={" + table + "}", &options_);
    ASSERT_TRUE(s.ok()) << s.ToString();
    options_.statistics = rocksdb::CreateDBStatistics();
    options_.listeners.push_back(table_counter_);
    // The string did configure our policy, in the format asked for.
    const auto* parsed = options_.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
    ASSERT_NE(parsed->filter_policy, nullptr);
    ASSERT_EQ(parsed->filter_policy->GetId(), GetParam().policy);
    s = OpenDb(options_, dir_.path(), &db_);
    ASSERT_TRUE(s.ok()) << s.ToString();

    for (int w = 0; w < kWriters; ++w) {
      keys_.push_back(RandomKeys(kKeysPerWriter, 1000 + w));
      written_[w].store(0);
    }
    // Writer 0's first keys are in a table before the readers start.
    for (size_t i = 0; i < kPreloadedKeys; ++i) Put(0, i);
    written_[0].store(kPreloadedKeys);
    ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
  }

  void Put(int writer, size_t i) {
    const std::string& key = keys_[writer][i];
    rocksdb::Status s = db_->Put(rocksdb::WriteOptions(), key, ValueFor(key));
    if (!s.ok()) tally_.Fail(tally_.errors, "Put: " + s.ToString());
  }

  // Inserts the writer's keys, publishing each once Put has returned (a
  // later read must see it); after each round writer 0 flushes and the
  // others compact the whole range.
  void Write(int writer) {
    for (size_t i = written_[writer].load(); i < kKeysPerWriter; ++i) {
      Put(writer, i);
      written_[writer].store(i + 1, std::memory_order_release);
      if ((i + 1) % kKeysPerRound != 0) continue;
      rocksdb::Status s = writer == 0
          ? db_->Flush(rocksdb::FlushOptions())
          : db_->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr);
      if (!s.ok()) tally_.Fail(tally_.errors, "Flush/CompactRange: " + s.ToString());
    }
  }

  // A random acknowledged key (every writer has one: writer 0 preloaded,
  // the others are skipped until they published their first).
  const std::string& AcknowledgedKey(std::mt19937_64& rng) {
    for (;;) {
      const int writer = static_cast<int>(rng() % kWriters);
      const size_t n = written_[writer].load(std::memory_order_acquire);
      if (n > 0) return keys_[writer][rng() % n];
    }
  }

  void CheckPresent(const std::string& key, const rocksdb::Status& s, const std::string& value) {
    if (s.ok() && value == ValueFor(key)) return;
    if (!s.ok() && !s.IsNotFound()) return tally_.Fail(tally_.errors, s.ToString());
    tally_.Fail(tally_.present_missed, "acknowledged key missed: " + s.ToString());
  }

  void CheckAbsent(const rocksdb::Status& s) {
    if (s.IsNotFound()) return;
    if (s.ok()) return tally_.Fail(tally_.absent_found, "absent key found");
    tally_.Fail(tally_.errors, s.ToString());
  }

  // One reader round: a Get of a present and of an absent key, then one
  // MultiGet of half present, half absent keys (the filter's batched path).
  void ReadRound(std::mt19937_64& rng) {
    std::string value;
    const std::string& present = AcknowledgedKey(rng);
    CheckPresent(present, db_->Get(rocksdb::ReadOptions(), present, &value), value);
    const std::string& absent = absent_[rng() % absent_.size()];
    CheckAbsent(db_->Get(rocksdb::ReadOptions(), absent, &value));

    std::vector<rocksdb::Slice> batch;
    for (size_t i = 0; i < kMultiGetBatch; ++i) {
      batch.emplace_back(i % 2 == 0 ? AcknowledgedKey(rng) : absent_[rng() % absent_.size()]);
    }
    std::vector<rocksdb::PinnableSlice> values(batch.size());
    std::vector<rocksdb::Status> statuses(batch.size());
    db_->MultiGet(rocksdb::ReadOptions(), db_->DefaultColumnFamily(), batch.size(), batch.data(),
                  values.data(), statuses.data());
    for (size_t i = 0; i < batch.size(); ++i) {
      if (i % 2 == 0) {
        CheckPresent(batch[i].ToString(), statuses[i], values[i].ToString());
      } else {
        CheckAbsent(statuses[i]);
      }
    }
    tally_.lookups.fetch_add(2 + batch.size(), std::memory_order_relaxed);
  }

  // Reads until every writer is done, then one round more.
  void Read(int reader) {
    std::mt19937_64 rng(77 + reader);
    while (!writers_done_.load(std::memory_order_acquire)) ReadRound(rng);
    ReadRound(rng);
  }

  TempDir dir_;
  rocksdb::Options options_;
  std::unique_ptr<rocksdb::DB> db_;
  std::vector<std::vector<std::string>> keys_;  // Per writer.
  std::atomic<size_t> written_[kWriters];       // Keys acknowledged, per writer.
  const std::vector<std::string> absent_ = AbsentKeys(kNumAbsent, 3);
  std::atomic<bool> writers_done_{false};
  Tally tally_;
  std::shared_ptr<TableCounter> table_counter_ = std::make_shared<TableCounter>();
};

TEST_P(ConcurrencyTest, ReadersSeeEveryKeyWhileTablesAreBuilt) {
  const uint64_t tables_before = table_counter_->tables();
  std::vector<std::thread> readers;
  for (int r = 0; r < kReaders; ++r) readers.emplace_back([this, r] { Read(r); });
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) writers.emplace_back([this, w] { Write(w); });
  for (std::thread& t : writers) t.join();
  const uint64_t tables_built = table_counter_->tables() - tables_before;
  writers_done_.store(true, std::memory_order_release);
  for (std::thread& t : readers) t.join();

  EXPECT_EQ(tally_.present_missed.load(), 0u) << tally_.first_failure;
  EXPECT_EQ(tally_.absent_found.load(), 0u) << tally_.first_failure;
  EXPECT_EQ(tally_.errors.load(), 0u) << tally_.first_failure;
  EXPECT_GT(tally_.lookups.load(), 0u);
  // Tables were written while the readers ran (each writer round flushes
  // or compacts), and the filter answered: absent keys rejected (useful)
  // and present ones passed (full positive).
  EXPECT_GE(tables_built, kWriters * kKeysPerWriter / kKeysPerRound / 2);
  EXPECT_GT(testing::Ticker(options_, rocksdb::BLOOM_FILTER_USEFUL), 0u);
  EXPECT_GT(testing::Ticker(options_, rocksdb::BLOOM_FILTER_FULL_POSITIVE), 0u);
  std::printf("%llu lookups while %llu tables were built; filter useful %llu\n",
              static_cast<unsigned long long>(tally_.lookups.load()),
              static_cast<unsigned long long>(tables_built),
              static_cast<unsigned long long>(
                  testing::Ticker(options_, rocksdb::BLOOM_FILTER_USEFUL)));

  // Afterwards, from one thread: every key is there.
  std::string value;
  for (const std::vector<std::string>& keys : keys_) {
    for (const std::string& key : keys) {
      ASSERT_TRUE(db_->Get(rocksdb::ReadOptions(), key, &value).ok());
      ASSERT_EQ(value, ValueFor(key));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, ConcurrencyTest, ::testing::ValuesIn(AllModes()), ModeName);

}  // namespace
}  // namespace sstfilter
