// compact_from_level in a real RocksDB tree: every live table's filter, read
// from the file by the SST inspector's parser, is in the encoding the level
// rule (filter/allocation/level_encoding.h) gives for how RocksDB created that
// table, no key is lost through flushes, compactions and reopen, and the
// filters keep absent keys away from data blocks. It runs over every fast
// encoding of the list (all but compact) as the policy's format.
//
// How a table was created is recorded by RocksDB's own calls, not guessed:
// a wrapper policy notes the FilterBuildingContext RocksDB passes when it
// asks for the table's filter builder, and a table-properties collector,
// which RocksDB creates right after, on the same thread, for the same table
// (BlockBasedTableBuilder's constructor, 7.8 to 9.11), stores it in the
// table's user properties.
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "db_test_util.h"
#include "filter/encodings.h"
#include "gtest/gtest.h"
#include "inspect/sst_filter_block.h"
#include "inspect/sst_source.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "sst_test_util.h"
#include "table/census/open_db.h"
#include "table/rocksdb/rocksdb_filter_policy.h"
#include "table/rocksdb/rocksdb_internal.h"

namespace sstfilter {
namespace {

using testing::AbsentKeys;
using testing::RandomKeys;
using testing::TempDir;
using testing::ValueFor;

constexpr int kNumLevels = 4;  // L0..L3: L3 is the bottom.

// The context RocksDB gave for the table being built on this thread, from
// GetBuilderWithContext until the table's collector takes it.
struct CreationContext {
  bool set = false;
  rocksdb::TableFileCreationReason reason{};
  int level = -1;
  bool bottommost = false;
};
thread_local CreationContext pending_context;

// Our policy, noting each builder's context.
class RecordingPolicy final : public rocksdb::FilterPolicy {
 public:
  explicit RecordingPolicy(std::shared_ptr<const rocksdb::FilterPolicy> inner)
      : inner_(std::move(inner)) {}
  const char* Name() const override { return "sstfilter_test.recording"; }
  const char* CompatibilityName() const override { return inner_->CompatibilityName(); }
  rocksdb::FilterBitsBuilder* GetBuilderWithContext(
      const rocksdb::FilterBuildingContext& context) const override {
    pending_context = {true, context.reason, context.level_at_creation, context.is_bottommost};
    return inner_->GetBuilderWithContext(context);
  }
  rocksdb::FilterBitsReader* GetFilterBitsReader(const rocksdb::Slice& contents) const override {
    return inner_->GetFilterBitsReader(contents);
  }

 private:
  std::shared_ptr<const rocksdb::FilterPolicy> inner_;
};

constexpr char kReasonProperty[] = "sstfilter_test.reason";
constexpr char kLevelProperty[] = "sstfilter_test.level";
constexpr char kBottommostProperty[] = "sstfilter_test.bottommost";

// Writes the pending context into the table's user properties.
class ContextCollector final : public rocksdb::TablePropertiesCollector {
 public:
  explicit ContextCollector(CreationContext context) : context_(context) {}
  rocksdb::Status AddUserKey(const rocksdb::Slice&, const rocksdb::Slice&, rocksdb::EntryType,
                             rocksdb::SequenceNumber, uint64_t) override {
    return rocksdb::Status::OK();
  }
  rocksdb::Status Finish(rocksdb::UserCollectedProperties* properties) override {
    if (!context_.set) return rocksdb::Status::OK();  // The test reports the table.
    (*properties)[kReasonProperty] = std::to_string(static_cast<int>(context_.reason));
    (*properties)[kLevelProperty] = std::to_string(context_.level);
    (*properties)[kBottommostProperty] = context_.bottommost ? "1" : "0";
    return rocksdb::Status::OK();
  }
  rocksdb::UserCollectedProperties GetReadableProperties() const override { return {}; }
  const char* Name() const override { return "sstfilter_test.context"; }

 private:
  const CreationContext context_;
};

class ContextCollectorFactory final : public rocksdb::TablePropertiesCollectorFactory {
 public:
  rocksdb::TablePropertiesCollector* CreateTablePropertiesCollector(
      rocksdb::TablePropertiesCollectorFactory::Context) override {
    const CreationContext context = pending_context;
    pending_context = {};
    return new ContextCollector(context);
  }
  const char* Name() const override { return "sstfilter_test.context"; }
};

// The encoding of a table's filter as the list (filter/encodings.h)
// recognises its bytes; nullopt for none (or no full filter).
using Written = std::optional<EncodingId>;

// The rule of level_encoding.h, for level compaction over the fast encoding.
EncodingId Expected(const CreationContext& c, int compact_from_level, EncodingId fast) {
  const bool flush = c.reason == rocksdb::TableFileCreationReason::kFlush ||
                     c.reason == rocksdb::TableFileCreationReason::kRecovery;
  if (flush) return fast;
  return c.level >= compact_from_level || c.bottommost || c.level < 0 ? EncodingId::kCompact
                                                                      : fast;
}

std::string NameOf(const Written& w) {
  return w ? std::string(EncodingName(*w)) : std::string("unrecognised");
}

// The encodings of the list compact_from_level goes with: every one but
// compact (format=compact with the option is refused).
std::vector<EncodingId> FastEncodings() {
  std::vector<EncodingId> fast;
  for (EncodingId encoding : AllEncodingIds()) {
    if (encoding != EncodingId::kCompact) fast.push_back(encoding);
  }
  return fast;
}

// One live table as found on disk.
struct LiveTable {
  std::string name;
  int level = -1;  // Where it sits now.
  CreationContext created;
  Written written;
};

// The kinds of table the rule tells apart, for the coverage check.
std::string KindOf(const LiveTable& t) {
  if (t.created.reason == rocksdb::TableFileCreationReason::kFlush) return "flush";
  if (t.created.reason == rocksdb::TableFileCreationReason::kRecovery) return "recovery";
  return absl::StrCat("L", t.created.level, t.created.bottommost ? " bottommost" : "");
}

// Over each fast encoding of the list (the test's parameter).
class DbLevelEncodingTest : public ::testing::TestWithParam<EncodingId> {
 protected:
  rocksdb::Options MakeOptions(bool auto_compactions) {
    FilterOptions bloom;
    bloom.encoding = GetParam();
    bloom.per_level.compact_from_level = compact_from_level_;
    rocksdb::BlockBasedTableOptions table;
    table.filter_policy =
        std::make_shared<RecordingPolicy>(NewRocksDbFilterPolicy(bloom).value());
    table.optimize_filters_for_memory = false;
    rocksdb::Options options;
    options.create_if_missing = true;
    options.statistics = rocksdb::CreateDBStatistics();
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    options.table_properties_collector_factories.push_back(
        std::make_shared<ContextCollectorFactory>());
    options.compaction_style = rocksdb::kCompactionStyleLevel;
    options.num_levels = kNumLevels;
    options.disable_auto_compactions = !auto_compactions;
    // Small sizes: ~400 keys per flush, L1 4 tables, L2 16, the rest in L3.
    options.write_buffer_size = 64 << 10;
    options.target_file_size_base = 64 << 10;
    options.max_bytes_for_level_base = 256 << 10;
    options.max_bytes_for_level_multiplier = 4;
    options.level0_file_num_compaction_trigger = 2;
    options.level_compaction_dynamic_level_bytes = false;
    return options;
  }

  void Open(bool auto_compactions) {
    options_ = MakeOptions(auto_compactions);
    rocksdb::Status s = OpenDb(options_, dir_.path(), &db_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  void Write(size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), keys_[i], ValueFor(keys_[i])).ok());
    }
    written_ = std::max(written_, end);
  }

  void Flush() { ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok()); }

  // Compacts every table of `from` (and of `also`, if >= 0) into `to`.
  void CompactLevels(int from, int also, int to) {
    rocksdb::ColumnFamilyMetaData meta;
    db_->GetColumnFamilyMetaData(&meta);
    std::vector<std::string> inputs;
    for (const auto& level : meta.levels) {
      if (level.level != from && level.level != also) continue;
      for (const auto& file : level.files) inputs.push_back(file.name);
    }
    ASSERT_FALSE(inputs.empty()) << "nothing in L" << from;
    rocksdb::Status s = db_->CompactFiles(rocksdb::CompactionOptions(), inputs, to);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  int FilesAt(int level) {
    rocksdb::ColumnFamilyMetaData meta;
    db_->GetColumnFamilyMetaData(&meta);
    return level < static_cast<int>(meta.levels.size())
               ? static_cast<int>(meta.levels[level].files.size())
               : 0;
  }

  // Until no flush or compaction is queued or running.
  void WaitForBackgroundWork() {
    for (int i = 0; i < 6000; ++i) {
      uint64_t pending = 0, running = 0, flushes = 0;
      ASSERT_TRUE(db_->GetIntProperty("rocksdb.compaction-pending", &pending));
      ASSERT_TRUE(db_->GetIntProperty("rocksdb.num-running-compactions", &running));
      ASSERT_TRUE(db_->GetIntProperty("rocksdb.num-running-flushes", &flushes));
      if (pending == 0 && running == 0 && flushes == 0) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    FAIL() << "background work did not finish in 60 s";
  }

  // Every live table: where it sits, how it was created, what its filter is.
  std::vector<LiveTable> LiveTables() {
    rocksdb::TablePropertiesCollection properties;
    EXPECT_TRUE(db_->GetPropertiesOfAllTables(&properties).ok());
    std::vector<rocksdb::LiveFileMetaData> files;
    db_->GetLiveFilesMetaData(&files);
    std::vector<LiveTable> tables;
    for (const rocksdb::LiveFileMetaData& file : files) {
      LiveTable t;
      t.name = file.name;
      t.level = file.level;
      const std::string path = file.db_path + file.name;
      const auto it = properties.find(path);
      if (it == properties.end()) {
        ADD_FAILURE() << "no properties for " << path;
        continue;
      }
      const auto& user = it->second->user_collected_properties;
      int reason = 0, bottommost = 0;
      t.created.set = user.count(kLevelProperty) == 1 &&
                      absl::SimpleAtoi(user.at(kReasonProperty), &reason) &&
                      absl::SimpleAtoi(user.at(kLevelProperty), &t.created.level) &&
                      absl::SimpleAtoi(user.at(kBottommostProperty), &bottommost);
      t.created.reason = static_cast<rocksdb::TableFileCreationReason>(reason);
      t.created.bottommost = bottommost != 0;
      t.written = WrittenIn(path);
      tables.push_back(t);
    }
    return tables;
  }

  // The encoding of the table's filter, as the list recognises its bytes.
  static Written WrittenIn(const std::string& path) {
    absl::StatusOr<std::unique_ptr<SstSource>> source = OpenSstFileSource(path);
    EXPECT_TRUE(source.ok()) << source.status();
    if (!source.ok()) return std::nullopt;
    absl::StatusOr<SstFilter> filter = ReadSstFilter(**source, testing::IndexFormatOf(path));
    EXPECT_TRUE(filter.ok()) << path << ": " << filter.status();
    if (!filter.ok() || filter->layout != SstFilterLayout::kFull) return std::nullopt;
    const std::string& bytes = filter->partitions.at(0).contents;
    if (DescribeFilter(bytes).state != FilterState::kProbe) return std::nullopt;
    return VisitEncodingOf(bytes, [](auto e) -> Written {
      if constexpr (std::is_same_v<decltype(e), UnrecognisedEncoding>) {
        return std::nullopt;
      } else {
        return decltype(e)::kId;
      }
    });
  }

  // Every live table's filter against the rule; the kinds seen are added
  // to kinds_seen_. `stage` names the check in failures.
  void ExpectEveryTableInItsFormat(const std::string& stage, bool created_where_it_sits) {
    const std::vector<LiveTable> tables = LiveTables();
    ASSERT_FALSE(tables.empty()) << stage;
    for (const LiveTable& t : tables) {
      SCOPED_TRACE(absl::StrCat(stage, ": ", t.name, " in L", t.level, ", created as ",
                                KindOf(t)));
      ASSERT_TRUE(t.created.set) << "no creation context recorded";
      EXPECT_EQ(NameOf(t.written),
                EncodingName(Expected(t.created, compact_from_level_, GetParam())));
      if (created_where_it_sits) {
        EXPECT_EQ(t.level, t.created.reason == rocksdb::TableFileCreationReason::kCompaction
                               ? t.created.level
                               : 0);
      }
      kinds_seen_[KindOf(t) + (t.written == EncodingId::kCompact ? " -> compact" : " -> fast")]++;
    }
  }

  void ExpectAllFound(const std::string& stage) {
    testing::ExpectAllFound(db_.get(), absl::MakeConstSpan(keys_).first(written_), stage);
  }

  // Absent keys are turned away by the filters: (nearly) every Get checks
  // at least one table's filter (a key past every table's key range checks
  // none), and few checks are false positives (both encodings are ~1% at
  // 10 bits/key; 3% leaves room for small tables).
  void ExpectFiltersUseful(const std::string& stage) {
    const uint64_t useful_before = testing::Ticker(options_, rocksdb::BLOOM_FILTER_USEFUL);
    const uint64_t positive_before =
        testing::Ticker(options_, rocksdb::BLOOM_FILTER_FULL_POSITIVE);
    const uint64_t true_before =
        testing::Ticker(options_, rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE);
    const std::vector<std::string> absent = AbsentKeys(5000, 99);
    std::string value;
    for (const std::string& key : absent) {
      ASSERT_TRUE(db_->Get(rocksdb::ReadOptions(), key, &value).IsNotFound()) << stage;
    }
    const uint64_t useful = testing::Ticker(options_, rocksdb::BLOOM_FILTER_USEFUL) - useful_before;
    const uint64_t false_positives =
        (testing::Ticker(options_, rocksdb::BLOOM_FILTER_FULL_POSITIVE) - positive_before) -
        (testing::Ticker(options_, rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE) - true_before);
    const uint64_t checks = useful + false_positives;
    EXPECT_GE(checks, absent.size() * 99 / 100) << stage;
    EXPECT_LT(static_cast<double>(false_positives), 0.03 * static_cast<double>(checks))
        << stage << ": " << false_positives << " false positives in " << checks << " checks";
  }

  void Reopen(bool auto_compactions) {
    ASSERT_TRUE(db_->Close().ok());
    db_.reset();
    Open(auto_compactions);
  }

  int compact_from_level_ = 2;
  TempDir dir_;
  rocksdb::Options options_;
  std::unique_ptr<rocksdb::DB> db_;
  std::vector<std::string> keys_ = RandomKeys(60000, 11);
  size_t written_ = 0;
  std::map<std::string, int> kinds_seen_;
};

// A tree built by hand, one compaction at a time, so that every case of the
// rule occurs: flushes, an L1 that is bottommost (nothing below yet), an L1
// above data, an L2 above data, the bottom L3. Tables sit where they were
// created (CompactFiles never moves a table without rewriting it).
TEST_P(DbLevelEncodingTest, EveryKindOfTableByHand) {
  Open(/*auto_compactions=*/false);
  Write(0, 2000);
  Flush();
  ExpectEveryTableInItsFormat("first flush", true);
  CompactLevels(0, -1, 1);  // L1 with nothing below: bottommost.
  ExpectEveryTableInItsFormat("L0 -> L1", true);
  CompactLevels(1, -1, 3);  // The bottom.
  ExpectEveryTableInItsFormat("L1 -> L3", true);
  Write(2000, 3000);
  Flush();
  CompactLevels(0, -1, 1);  // L1 above L3: not bottommost.
  ExpectEveryTableInItsFormat("second L0 -> L1", true);
  Write(3000, 4000);
  Flush();
  CompactLevels(0, 1, 2);  // L2 above L3.
  ExpectEveryTableInItsFormat("L0 + L1 -> L2", true);
  Write(4000, 5000);
  Flush();
  CompactLevels(0, -1, 1);
  Write(5000, 6000);
  Flush();
  ExpectEveryTableInItsFormat("L0, L1, L2, L3", true);
  ExpectAllFound("by hand");
  ExpectFiltersUseful("by hand");
  for (const char* kind : {"flush -> fast", "L1 bottommost -> compact", "L1 -> fast",
                           "L2 -> compact", "L3 bottommost -> compact"}) {
    EXPECT_GT(kinds_seen_[kind], 0) << "never saw a table of kind " << kind;
  }
  Reopen(false);
  ExpectEveryTableInItsFormat("reopened", true);
  ExpectAllFound("reopened");
  ExpectFiltersUseful("reopened");
}

// RocksDB choosing its own compactions: 60000 keys through small buffers
// reach L3. Trivial moves may leave a table below the level it was created
// at, so only how it was created is checked.
TEST_P(DbLevelEncodingTest, AutomaticCompactionsThroughAllLevels) {
  Open(/*auto_compactions=*/true);
  for (size_t begin = 0; begin < keys_.size(); begin += 5000) {
    Write(begin, std::min(begin + 5000, keys_.size()));
  }
  Flush();
  WaitForBackgroundWork();
  // L0 holds at most one table now (2 trigger a compaction); one more flush
  // into an empty L0 stays there.
  if (FilesAt(0) == 0) {
    for (size_t i = 0; i < 200; ++i) {  // Overwrites: the key set stays.
      ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), keys_[i], ValueFor(keys_[i])).ok());
    }
    Flush();
    WaitForBackgroundWork();
  }
  ExpectEveryTableInItsFormat("after the fill", false);
  std::map<int, int> tables_per_level;
  for (const LiveTable& t : LiveTables()) tables_per_level[t.level]++;
  // Which levels RocksDB filled depends on timing; these do not.
  EXPECT_GT(tables_per_level[kNumLevels - 1], 0) << "no table reached the bottom level";
  EXPECT_GT(tables_per_level[0], 0) << "no table in L0";
  EXPECT_GT(kinds_seen_["flush -> fast"], 0);
  ExpectAllFound("after the fill");
  ExpectFiltersUseful("after the fill");
  Reopen(true);
  ExpectEveryTableInItsFormat("reopened", false);
  ExpectAllFound("reopened");
  ExpectFiltersUseful("reopened");
  // Everything rewritten into the bottom level: compact filters only.
  rocksdb::CompactRangeOptions full;
  full.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  ASSERT_TRUE(db_->CompactRange(full, nullptr, nullptr).ok());
  for (const LiveTable& t : LiveTables()) {
    EXPECT_EQ(t.level, kNumLevels - 1) << t.name;
    EXPECT_EQ(NameOf(t.written), EncodingName(EncodingId::kCompact)) << t.name;
  }
  ExpectAllFound("fully compacted");
  ExpectFiltersUseful("fully compacted");
}

// compact_from_level=0: every table RocksDB writes is compact except the
// memtable's, whether flushed or, after a restart, recovered from the WAL.
TEST_P(DbLevelEncodingTest, FromLevelZeroOnlyFlushesAreFast) {
  compact_from_level_ = 0;
  Open(/*auto_compactions=*/true);
  Write(0, 20000);
  Flush();
  WaitForBackgroundWork();
  Write(20000, 21000);  // Left in the memtable and the WAL.
  // Recovery writes them to an L0 table, which no compaction takes away.
  Reopen(/*auto_compactions=*/false);
  ExpectEveryTableInItsFormat("reopened", false);
  EXPECT_GT(kinds_seen_["recovery -> fast"], 0);
  EXPECT_GT(kinds_seen_["L1 -> compact"] + kinds_seen_["L1 bottommost -> compact"], 0);
  ExpectAllFound("reopened");
  ExpectFiltersUseful("reopened");
}

INSTANTIATE_TEST_SUITE_P(Fast, DbLevelEncodingTest, ::testing::ValuesIn(FastEncodings()),
                         [](const ::testing::TestParamInfo<EncodingId>& info) {
                           return std::string(EncodingName(info.param));
                         });

}  // namespace
}  // namespace sstfilter
