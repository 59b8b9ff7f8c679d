// compact_from_level through the RocksDB policy, one table at a time: the
// FilterBuildingContext RocksDB hands GetBuilderWithContext decides the
// format of the filter it builds (the rule in table/rocksdb/level_format.h),
// read back from the built filter's final byte.
#include <memory>
#include <optional>
#include <string>

#include "absl/strings/str_format.h"
#include "filter/cache_local/bloom.h"
#include "filter/compact/filter.h"
#include "gtest/gtest.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/table.h"
#include "table/rocksdb/rocksdb_filter_policy.h"
#include "table/rocksdb/rocksdb_internal.h"

namespace sstfilter {
namespace {

// What the final byte says; LevelDB's is its k (6 at 10 bits/key).
enum class Written { kLevelDb, kCacheLocal, kCompact };

const char* WrittenName(Written w) {
  switch (w) {
    case Written::kLevelDb: return "leveldb";
    case Written::kCacheLocal: return "cache_local";
    case Written::kCompact: return "compact";
  }
  return "?";
}

// One table as RocksDB describes it.
struct Table {
  const char* what;
  rocksdb::CompactionStyle style;
  rocksdb::TableFileCreationReason reason;
  int level;
  bool bottommost;
};

using Reason = rocksdb::TableFileCreationReason;

// The format the policy chose for `table`, from the filter it built.
Written WrittenFor(const rocksdb::FilterPolicy& policy, const Table& table) {
  rocksdb::BlockBasedTableOptions table_options;
  table_options.optimize_filters_for_memory = false;
  rocksdb::FilterBuildingContext context(table_options);
  context.compaction_style = table.style;
  context.num_levels = 7;
  context.reason = table.reason;
  context.level_at_creation = table.level;
  context.is_bottommost = table.bottommost;
  std::unique_ptr<rocksdb::FilterBitsBuilder> builder(policy.GetBuilderWithContext(context));
  EXPECT_NE(builder, nullptr) << table.what;
  if (builder == nullptr) return Written::kLevelDb;
  for (int i = 0; i < 1000; ++i) builder->AddKey(absl::StrFormat("key%06d", i));
  std::unique_ptr<const char[]> buf;
  const rocksdb::Slice filter = builder->Finish(&buf);
  EXPECT_GT(filter.size(), 1u) << table.what;
  const auto tag = static_cast<unsigned char>(filter[filter.size() - 1]);
  if (tag == kCompactTag) return Written::kCompact;
  if (tag == kCacheLocalTag) return Written::kCacheLocal;
  EXPECT_EQ(tag, 6) << table.what << ": neither tag nor LevelDB's k";
  return Written::kLevelDb;
}

void ExpectWritten(const rocksdb::FilterPolicy& policy, const Table& table, Written want) {
  EXPECT_EQ(WrittenName(WrittenFor(policy, table)), std::string(WrittenName(want))) << table.what;
}

std::unique_ptr<rocksdb::FilterPolicy> Policy(EncodingId format, std::optional<int> level) {
  FilterOptions options;
  options.encoding = format;
  options.compact_from_level = level;
  return NewRocksDbFilterPolicy(options).value();
}

constexpr auto kLevel = rocksdb::kCompactionStyleLevel;
constexpr auto kUniversal = rocksdb::kCompactionStyleUniversal;
constexpr auto kFifo = rocksdb::kCompactionStyleFIFO;
constexpr auto kNoStyle = rocksdb::kCompactionStyleNone;

// The table of level_format.h, for compact_from_level=2 over cache_local.
TEST(LevelFormatTest, CompactFromLevelTwo) {
  const auto policy = Policy(EncodingId::kCacheLocal, 2);
  const struct {
    Table table;
    Written want;
  } kCases[] = {
      {{"flush", kLevel, Reason::kFlush, 0, false}, Written::kCacheLocal},
      {{"WAL recovery", kLevel, Reason::kRecovery, 0, false}, Written::kCacheLocal},
      {{"intra-L0 compaction", kLevel, Reason::kCompaction, 0, false}, Written::kCacheLocal},
      {{"L1", kLevel, Reason::kCompaction, 1, false}, Written::kCacheLocal},
      {{"L1 bottommost", kLevel, Reason::kCompaction, 1, true}, Written::kCompact},
      {{"L2", kLevel, Reason::kCompaction, 2, false}, Written::kCompact},
      {{"L2 bottommost", kLevel, Reason::kCompaction, 2, true}, Written::kCompact},
      {{"L6", kLevel, Reason::kCompaction, 6, false}, Written::kCompact},
      {{"SstFileWriter", kLevel, Reason::kMisc, -1, false}, Written::kCompact},
      {{"universal flush", kUniversal, Reason::kFlush, 0, false}, Written::kCacheLocal},
      {{"universal L1", kUniversal, Reason::kCompaction, 1, false}, Written::kCacheLocal},
      {{"universal L0 last run", kUniversal, Reason::kCompaction, 0, true}, Written::kCompact},
      {{"universal L6", kUniversal, Reason::kCompaction, 6, true}, Written::kCompact},
      {{"FIFO flush", kFifo, Reason::kFlush, 0, false}, Written::kCompact},
      {{"FIFO intra-L0", kFifo, Reason::kCompaction, 0, false}, Written::kCompact},
      {{"style none flush", kNoStyle, Reason::kFlush, 0, false}, Written::kCompact},
  };
  for (const auto& c : kCases) ExpectWritten(*policy, c.table, c.want);
}

// Level 0: every table but flushes; a level past the tree: bottommost only.
TEST(LevelFormatTest, EdgeLevels) {
  const auto from_zero = Policy(EncodingId::kLevelDb, 0);
  ExpectWritten(*from_zero, {"flush", kLevel, Reason::kFlush, 0, false}, Written::kLevelDb);
  ExpectWritten(*from_zero, {"recovery", kLevel, Reason::kRecovery, 0, false},
                Written::kLevelDb);
  ExpectWritten(*from_zero, {"intra-L0", kLevel, Reason::kCompaction, 0, false},
                Written::kCompact);
  const auto past_tree = Policy(EncodingId::kLevelDb, 100);
  ExpectWritten(*past_tree, {"L6", kLevel, Reason::kCompaction, 6, false}, Written::kLevelDb);
  ExpectWritten(*past_tree, {"L6 bottommost", kLevel, Reason::kCompaction, 6, true},
                Written::kCompact);
}

// Without the option, the format everywhere, bottommost and FIFO included.
TEST(LevelFormatTest, UnsetMeansOneFormat) {
  for (EncodingId format :
       {EncodingId::kLevelDb, EncodingId::kCacheLocal, EncodingId::kCompact}) {
    const auto policy = Policy(format, std::nullopt);
    const Written want = format == EncodingId::kLevelDb      ? Written::kLevelDb
                         : format == EncodingId::kCacheLocal ? Written::kCacheLocal
                                                               : Written::kCompact;
    for (const Table& table :
         {Table{"flush", kLevel, Reason::kFlush, 0, false},
          Table{"L6 bottommost", kLevel, Reason::kCompaction, 6, true},
          Table{"FIFO flush", kFifo, Reason::kFlush, 0, false},
          Table{"SstFileWriter", kLevel, Reason::kMisc, -1, false}}) {
      SCOPED_TRACE(EncodingName(format));
      ExpectWritten(*policy, table, want);
    }
  }
}

}  // namespace
}  // namespace sstfilter
