// sstfilter's leveldb::FilterPolicy in a real LevelDB (Debian's libleveldb
// 1.23) in a temporary directory: no false negatives through writes,
// compaction and reopen; absent-key Gets skip data-block reads (counted by
// LevelDbCountingEnv, with the block cache off); databases written with
// LevelDB's built-in policy and with ours open with the other. Ours runs in
// every encoding of the list (filter/encodings.h).
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "filter/encoding_id.h"
#include "filter/filter_options.h"
#include "gtest/gtest.h"
#include "leveldb/cache.h"
#include "leveldb/db.h"
#include "leveldb/filter_policy.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "table/leveldb/leveldb_filter_policy.h"
#include "tests/db_test_util.h"
#include "bench/db_bench/leveldb_counting_env.h"

namespace sstfilter {
namespace {

using Policy = std::unique_ptr<const leveldb::FilterPolicy>;

constexpr size_t kKeys = 20000;
// At 10 bits/key LevelDB-style filters answer ~1% of absent keys; a broken
// or unused filter reads a data block for (nearly) every one.
constexpr double kMaxFilteredReadsPerAbsentGet = 0.03;
constexpr double kMinUnfilteredReadsPerAbsentGet = 0.9;

// "leveldb:10" is LevelDB's built-in policy, "none" no filter, anything else
// one of our ids.
Policy MakePolicy(const std::string& spec) {
  if (spec == "none") return nullptr;
  if (spec == "leveldb:10") return Policy(leveldb::NewBloomFilterPolicy(10));
  auto policy = NewLevelDbFilterPolicyFromString(spec);
  EXPECT_TRUE(policy.ok()) << policy.status();
  return policy.ok() ? *std::move(policy) : nullptr;
}

// A Param's name for gtest ("sstfilter.bloom:10:cache_local" ->
// "sstfilter_bloom_10_cache_local").
std::string TestName(std::string spec) {
  for (char& c : spec) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return spec;
}

// Our policy at 10 bits/key in each encoding of the list (filter/encodings.h).
std::vector<std::string> OurPolicies() {
  std::vector<std::string> ids;
  for (EncodingId encoding : AllEncodingIds()) {
    FilterOptions options;
    options.encoding = encoding;
    ids.push_back(FormatPolicyId(options));
  }
  return ids;
}

std::string ValueOf(const std::string& key) {
  return testing::ValueFor(key) + std::string(100, 'v');
}

class LevelDbDbTest : public ::testing::Test {
 protected:
  void Open(const leveldb::FilterPolicy* policy) {
    leveldb::Options options;
    options.create_if_missing = true;
    options.env = &env_;
    options.filter_policy = policy;
    options.block_cache = no_block_cache_.get();
    options.write_buffer_size = 256 << 10;  // Several level-0 tables and compactions.
    options.max_file_size = 1 << 20;        // Several tables after compaction.
    leveldb::DB* db = nullptr;
    const leveldb::Status s = leveldb::DB::Open(options, dir_.path(), &db);
    ASSERT_TRUE(s.ok()) << s.ToString();
    db_.reset(db);
  }
  void Close() { db_.reset(); }

  void Write(const std::vector<std::string>& keys) {
    for (const std::string& key : keys) {
      ASSERT_TRUE(db_->Put(leveldb::WriteOptions(), key, ValueOf(key)).ok());
    }
  }

  // Everything into one level: each Get then consults at most one table, and
  // none triggers a seek compaction.
  void CompactAll() { db_->CompactRange(nullptr, nullptr); }

  void ExpectAllFound(const std::vector<std::string>& keys, const char* when) {
    std::string value;
    for (size_t i = 0; i < keys.size(); ++i) {
      const leveldb::Status s = db_->Get(ReadOptions(), keys[i], &value);
      ASSERT_TRUE(s.ok()) << when << ": key " << i << ": " << s.ToString();
      ASSERT_EQ(value, ValueOf(keys[i])) << when << ": key " << i;
    }
  }

  void ExpectNoneFound(const std::vector<std::string>& keys, const char* when) {
    std::string value;
    for (size_t i = 0; i < keys.size(); ++i) {
      ASSERT_TRUE(db_->Get(ReadOptions(), keys[i], &value).IsNotFound()) << when << ": " << i;
    }
  }

  // Opens every table (reading its index and filter blocks) so that later
  // Gets read only data blocks, then starts counting from zero.
  void WarmTableCache() {
    std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
    }
    ASSERT_TRUE(it->status().ok()) << it->status().ToString();
    env_.ResetCounts();
  }

  // Table-file reads per Get of keys (REQUIRES: WarmTableCache).
  double ReadsPerGet(const std::vector<std::string>& keys) {
    env_.ResetCounts();
    std::string value;
    for (const std::string& key : keys) static_cast<void>(db_->Get(ReadOptions(), key, &value));
    return static_cast<double>(env_.table_reads()) / static_cast<double>(keys.size());
  }

  static void Report(const std::string& what, double reads_per_get) {
    std::printf("[ reads    ] %-52s %.4f table reads per Get\n", what.c_str(), reads_per_get);
  }

  // Data blocks always come from the file (the cache holds nothing).
  static leveldb::ReadOptions ReadOptions() {
    leveldb::ReadOptions options;
    options.fill_cache = false;
    return options;
  }

  const std::vector<std::string> keys_ = testing::RandomKeys(kKeys, 1);
  const std::vector<std::string> absent_ = testing::AbsentKeys(kKeys, 1);
  testing::TempDir dir_;
  LevelDbCountingEnv env_;
  const std::unique_ptr<leveldb::Cache> no_block_cache_{leveldb::NewLRUCache(0)};
  std::unique_ptr<leveldb::DB> db_;  // Declared last: closed before the rest.
};

// ---- No false negatives, for both encodings ----

class LevelDbDbEncodingTest : public LevelDbDbTest,
                              public ::testing::WithParamInterface<std::string> {};

TEST_P(LevelDbDbEncodingTest, NoFalseNegativesAfterWritesCompactionAndReopen) {
  const Policy policy = MakePolicy(GetParam());
  ASSERT_NE(policy, nullptr);
  Open(policy.get());
  Write(keys_);
  ExpectAllFound(keys_, "after writes");
  ExpectNoneFound(absent_, "after writes");
  CompactAll();
  ExpectAllFound(keys_, "after compaction");
  ExpectNoneFound(absent_, "after compaction");
  Close();
  Open(policy.get());
  ExpectAllFound(keys_, "after reopen");
  ExpectNoneFound(absent_, "after reopen");
  // The filter was in use all along: absent keys rarely reach a data block.
  WarmTableCache();
  const double absent_reads = ReadsPerGet(absent_);
  Report(GetParam() + ", absent, after reopen", absent_reads);
  EXPECT_LT(absent_reads, kMaxFilteredReadsPerAbsentGet);
}

INSTANTIATE_TEST_SUITE_P(Encodings, LevelDbDbEncodingTest, ::testing::ValuesIn(OurPolicies()),
                         [](const auto& info) { return TestName(info.param); });

// ---- Absent-key Gets skip data blocks ----

struct ReadsCase {
  std::string policy;
  bool filtered;  // false: the control, no filter.
};
void PrintTo(const ReadsCase& c, std::ostream* os) { *os << c.policy; }

class LevelDbDbReadsTest : public LevelDbDbTest,
                           public ::testing::WithParamInterface<ReadsCase> {};

TEST_P(LevelDbDbReadsTest, AbsentGetsSkipDataBlockReads) {
  const Policy policy = MakePolicy(GetParam().policy);
  Open(policy.get());
  Write(keys_);
  CompactAll();
  WarmTableCache();
  // Each present key is in one table and its Get reads one data block: the
  // count is of data-block reads and nothing else.
  const double present_reads = ReadsPerGet(keys_);
  Report(GetParam().policy + ", present", present_reads);
  EXPECT_EQ(present_reads, 1.0);
  const double absent_reads = ReadsPerGet(absent_);
  Report(GetParam().policy + ", absent", absent_reads);
  if (GetParam().filtered) {
    EXPECT_LT(absent_reads, kMaxFilteredReadsPerAbsentGet);
  } else {
    EXPECT_GT(absent_reads, kMinUnfilteredReadsPerAbsentGet);
  }
}

// LevelDB's built-in, ours in each encoding, and no filter.
std::vector<ReadsCase> ReadsCases() {
  std::vector<ReadsCase> cases = {{"leveldb:10", true}};
  for (const std::string& ours : OurPolicies()) cases.push_back({ours, true});
  cases.push_back({"none", false});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Policies, LevelDbDbReadsTest, ::testing::ValuesIn(ReadsCases()),
                         [](const auto& info) { return TestName(info.param.policy); });

// ---- Written with one policy, opened with the other ----

struct CrossCase {
  std::string writer;
  std::string reader;
  // Whether the reader uses the writer's filters (same Name()): then its
  // data-block reads equal the writer's, Get for Get.
  bool filter_used;
};
void PrintTo(const CrossCase& c, std::ostream* os) { *os << c.writer << " -> " << c.reader; }

class LevelDbDbCrossTest : public LevelDbDbTest,
                           public ::testing::WithParamInterface<CrossCase> {};

TEST_P(LevelDbDbCrossTest, OpensWithTheOtherPolicy) {
  const Policy writer = MakePolicy(GetParam().writer);
  Open(writer.get());
  Write(keys_);
  CompactAll();
  WarmTableCache();
  const double writer_reads = ReadsPerGet(absent_);
  Report(GetParam().writer + " (writer), absent", writer_reads);
  ASSERT_LT(writer_reads, kMaxFilteredReadsPerAbsentGet);
  Close();

  const Policy reader = MakePolicy(GetParam().reader);
  Open(reader.get());
  ExpectAllFound(keys_, "opened with the other policy");
  ExpectNoneFound(absent_, "opened with the other policy");
  WarmTableCache();
  const double reader_reads = ReadsPerGet(absent_);
  Report(GetParam().reader + " reading " + GetParam().writer + ", absent", reader_reads);
  if (GetParam().filter_used) {
    EXPECT_EQ(reader_reads, writer_reads);
  } else {
    EXPECT_GT(reader_reads, kMinUnfilteredReadsPerAbsentGet);
  }
}

// Each of our encodings against LevelDB's built-in, both ways. Only the
// LevelDB encoding's policy takes the built-in's name (its filters are the
// built-in's bytes); the others' name is sstfilter.bloom, whose filters
// LevelDB's policy never reads (table/leveldb/leveldb_filter_policy.h).
std::vector<CrossCase> CrossCases() {
  std::vector<CrossCase> cases;
  for (EncodingId encoding : AllEncodingIds()) {
    FilterOptions options;
    options.encoding = encoding;
    const std::string ours = FormatPolicyId(options);
    const bool same_name = encoding == EncodingId::kLevelDb;
    cases.push_back({"leveldb:10", ours, same_name});
    cases.push_back({ours, "leveldb:10", same_name});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(
    Pairs, LevelDbDbCrossTest, ::testing::ValuesIn(CrossCases()),
    [](const auto& info) {
      return TestName(info.param.writer) + "_read_by_" + TestName(info.param.reader);
    });

}  // namespace
}  // namespace sstfilter
