// compact_from_level through the RocksDB policy, one table at a time: the
// FilterBuildingContext RocksDB hands GetBuilderWithContext decides the
// format of the filter it builds (the rule in filter/allocation/level_encoding.h),
// read back from the built filter's bytes. Each test runs over every
// encoding of the list (filter/encodings.h) as the policy's own.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/strings/str_format.h"
#include "filter/encodings.h"
#include "gtest/gtest.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/table.h"
#include "table/rocksdb/rocksdb_filter_policy.h"
#include "table/rocksdb/rocksdb_internal.h"

namespace sstfilter {
namespace {

// One table as RocksDB describes it.
struct Table {
  const char* what;
  rocksdb::CompactionStyle style;
  rocksdb::TableFileCreationReason reason;
  int level;
  bool bottommost;
};

using Reason = rocksdb::TableFileCreationReason;

// The encoding of the filter the policy built for `table`, as the list
// (filter/encodings.h) recognises its bytes; nullopt when none does.
std::optional<EncodingId> WrittenFor(const rocksdb::FilterPolicy& policy, const Table& table) {
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
  if (builder == nullptr) return std::nullopt;
  for (int i = 0; i < 1000; ++i) builder->AddKey(absl::StrFormat("key%06d", i));
  std::unique_ptr<const char[]> buf;
  const rocksdb::Slice filter = builder->Finish(&buf);
  const std::string_view bytes(filter.data(), filter.size());
  // A real filter of 1000 keys, not the empty one or damaged bytes.
  EXPECT_EQ(DescribeFilter(bytes).state, FilterState::kProbe)
      << table.what << ": " << DescribeFilter(bytes).name;
  return VisitEncodingOf(bytes, [](auto e) -> std::optional<EncodingId> {
    if constexpr (std::is_same_v<decltype(e), UnrecognisedEncoding>) {
      return std::nullopt;
    } else {
      return decltype(e)::kId;
    }
  });
}

void ExpectWritten(const rocksdb::FilterPolicy& policy, const Table& table, EncodingId want) {
  const std::optional<EncodingId> written = WrittenFor(policy, table);
  EXPECT_EQ(written ? EncodingName(*written) : "unrecognised", EncodingName(want)) << table.what;
}

std::unique_ptr<rocksdb::FilterPolicy> Policy(EncodingId encoding, std::optional<int> level) {
  FilterOptions options;
  options.encoding = encoding;
  options.per_level.compact_from_level = level;
  return NewRocksDbFilterPolicy(options).value();
}

// The encodings of the list compact_from_level can go with: every one but
// compact itself (format=compact with the option is refused).
std::vector<EncodingId> FastEncodings() {
  std::vector<EncodingId> fast;
  for (EncodingId encoding : AllEncodingIds()) {
    if (encoding == EncodingId::kCompact) {
      FilterOptions options;
      options.encoding = encoding;
      options.per_level.compact_from_level = 2;
      EXPECT_FALSE(NewRocksDbFilterPolicy(options).ok());
      continue;
    }
    fast.push_back(encoding);
  }
  return fast;
}

constexpr auto kLevel = rocksdb::kCompactionStyleLevel;
constexpr auto kUniversal = rocksdb::kCompactionStyleUniversal;
constexpr auto kFifo = rocksdb::kCompactionStyleFIFO;
constexpr auto kNoStyle = rocksdb::kCompactionStyleNone;

// The table of level_encoding.h, for compact_from_level=2 over each encoding
// it can go with.
TEST(LevelEncodingTest, CompactFromLevelTwo) {
  const struct {
    Table table;
    bool compact;  // Else the policy's own encoding.
  } kCases[] = {
      {{"flush", kLevel, Reason::kFlush, 0, false}, false},
      {{"WAL recovery", kLevel, Reason::kRecovery, 0, false}, false},
      {{"intra-L0 compaction", kLevel, Reason::kCompaction, 0, false}, false},
      {{"L1", kLevel, Reason::kCompaction, 1, false}, false},
      {{"L1 bottommost", kLevel, Reason::kCompaction, 1, true}, true},
      {{"L2", kLevel, Reason::kCompaction, 2, false}, true},
      {{"L2 bottommost", kLevel, Reason::kCompaction, 2, true}, true},
      {{"L6", kLevel, Reason::kCompaction, 6, false}, true},
      {{"SstFileWriter", kLevel, Reason::kMisc, -1, false}, true},
      {{"universal flush", kUniversal, Reason::kFlush, 0, false}, false},
      {{"universal L1", kUniversal, Reason::kCompaction, 1, false}, false},
      {{"universal L0 last run", kUniversal, Reason::kCompaction, 0, true}, true},
      {{"universal L6", kUniversal, Reason::kCompaction, 6, true}, true},
      {{"FIFO flush", kFifo, Reason::kFlush, 0, false}, true},
      {{"FIFO intra-L0", kFifo, Reason::kCompaction, 0, false}, true},
      {{"style none flush", kNoStyle, Reason::kFlush, 0, false}, true},
  };
  for (EncodingId encoding : FastEncodings()) {
    SCOPED_TRACE(EncodingName(encoding));
    const auto policy = Policy(encoding, 2);
    for (const auto& c : kCases) {
      ExpectWritten(*policy, c.table, c.compact ? EncodingId::kCompact : encoding);
    }
  }
}

// Level 0: every table but flushes; a level past the tree: bottommost only.
TEST(LevelEncodingTest, EdgeLevels) {
  for (EncodingId encoding : FastEncodings()) {
    SCOPED_TRACE(EncodingName(encoding));
    const auto from_zero = Policy(encoding, 0);
    ExpectWritten(*from_zero, {"flush", kLevel, Reason::kFlush, 0, false}, encoding);
    ExpectWritten(*from_zero, {"recovery", kLevel, Reason::kRecovery, 0, false}, encoding);
    ExpectWritten(*from_zero, {"intra-L0", kLevel, Reason::kCompaction, 0, false},
                  EncodingId::kCompact);
    const auto past_tree = Policy(encoding, 100);
    ExpectWritten(*past_tree, {"L6", kLevel, Reason::kCompaction, 6, false}, encoding);
    ExpectWritten(*past_tree, {"L6 bottommost", kLevel, Reason::kCompaction, 6, true},
                  EncodingId::kCompact);
  }
}

// Without the option, the format everywhere, bottommost and FIFO included.
TEST(LevelEncodingTest, UnsetMeansOneFormat) {
  for (EncodingId encoding : AllEncodingIds()) {
    const auto policy = Policy(encoding, std::nullopt);
    for (const Table& table :
         {Table{"flush", kLevel, Reason::kFlush, 0, false},
          Table{"L6 bottommost", kLevel, Reason::kCompaction, 6, true},
          Table{"FIFO flush", kFifo, Reason::kFlush, 0, false},
          Table{"SstFileWriter", kLevel, Reason::kMisc, -1, false}}) {
      SCOPED_TRACE(EncodingName(encoding));
      ExpectWritten(*policy, table, encoding);
    }
  }
}

}  // namespace
}  // namespace sstfilter
