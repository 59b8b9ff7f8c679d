// A tree's text form (filter/allocation/tree_text.h): every field read back
// as written, lines of other forms left to their readers, bad fields named.
#include "filter/allocation/tree_text.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_split.h"
#include "filter/allocation/tree_traffic.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

TreeRuns ReadLines(const std::string& text) {
  TreeRuns runs;
  for (const absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    const absl::Status status = ReadTreeLine(std::string_view(line.data(), line.size()), &runs);
    EXPECT_TRUE(status.ok()) << status;
  }
  return runs;
}

// A tree with every field away from its default.
TreeRuns EveryField() {
  TreeRuns runs;
  runs.targets = LevelTargets{true, 2, true, 8, 12345.5};
  runs.l0_tables = {RunCensus{100, 1, 100, 1000, 1}, RunCensus{200, 1, 0, 0, 1}};
  runs.levels.resize(3);
  runs.levels[2] = RunCensus{5000, 5, 3000, 30000, 0.75};
  runs.blocks = BlockShape{1000, 40960, 10, 4096, 1};
  runs.hit_share = 0.25, runs.hit_share_carried = true;
  runs.observed_misses = MissWindow{GetReads{0.5, 0.25, 0.125}, 4096, 777};
  auto traffic = std::make_shared<TreeTraffic>();
  traffic->gets = 300;
  traffic->l0.push_back(TableTraffic{7, KeyRange{"a", "b", 100}, 0.1, 0.05, 3});
  traffic->levels.resize(3);
  traffic->levels[2].push_back(TableTraffic{9, KeyRange{"k 1", "k\x01", 5000}, 0.6, 0.7, 90});
  runs.traffic = traffic;
  return runs;
}

TEST(TreeTextTest, EveryFieldReadsBackAsWritten) {
  const TreeRuns runs = EveryField();
  const std::string text = TreeText(runs);
  const TreeRuns back = ReadLines(text);
  EXPECT_EQ(TreeText(back), text);
  ASSERT_EQ(back.l0_tables.size(), 2u);
  EXPECT_EQ(back.l0_tables[0].fixed_filter_bits, 1000u);
  ASSERT_EQ(back.levels.size(), 3u);
  EXPECT_EQ(back.levels[2].reach, 0.75);
  EXPECT_EQ(back.targets.base_entries, 12345.5);
  EXPECT_TRUE(back.targets.dynamic);
  EXPECT_EQ(back.blocks.index_bytes, 4096);
  EXPECT_EQ(*back.hit_share, 0.25);
  EXPECT_TRUE(back.hit_share_carried);
  EXPECT_EQ(back.observed_misses->new_filter_bytes, 777);
  ASSERT_NE(back.traffic, nullptr);
  ASSERT_EQ(back.traffic->levels.size(), 3u);
  ASSERT_EQ(back.traffic->levels[2].size(), 1u);
  EXPECT_EQ(back.traffic->levels[2][0].range.smallest, "k 1");
  EXPECT_EQ(back.traffic->levels[2][0].range.largest, "k\x01");
  EXPECT_EQ(back.traffic->l0[0].file_number, 7u);
}

TEST(TreeTextTest, FieldsLeftOutKeepTheirDefaults) {
  const TreeRuns runs = ReadLines("L1 keys=10\n");
  ASSERT_EQ(runs.levels.size(), 2u);
  EXPECT_EQ(runs.levels[1].keys, 10u);
  EXPECT_EQ(runs.levels[1].reach, 1);
  EXPECT_FALSE(runs.targets.leveled);
  EXPECT_EQ(runs.traffic, nullptr);
  EXPECT_EQ(TreeText(runs), "L1 keys=10 tables=0\n");
}

TEST(TreeTextTest, OtherFormsLinesAreNotFound) {
  TreeRuns runs;
  EXPECT_TRUE(absl::IsNotFound(ReadTreeLine("policy sstfilter.bloom:10", &runs)));
  EXPECT_TRUE(absl::IsNotFound(ReadTreeLine("   ", &runs)));
  EXPECT_TRUE(runs.levels.empty());
}

TEST(TreeTextTest, BadFieldsAreNamed) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"L1 keys=ten", "keys=ten is not a number"},
      {"L1 keys=1 colour=red", "unknown field colour"},
      {"L1 keys=1 keys=2", "field keys given twice"},
      {"targets leveled sideways", "unknown word sideways"},
      {"hit_share 1.5", "expected hit_share <share in [0, 1]>"},
      {"hit_share", "expected hit_share <share in [0, 1]>"},
      {"traffic_table X1 file=1", "expected a level"},
      {"traffic_table", "expected a level"},
      {"traffic_table L1 smallest=\\q", "bad escape in smallest"},
      {"blocks entries=nan", "entries=nan is not a number"},
  };
  for (const auto& [line, message] : cases) {
    TreeRuns runs;
    const absl::Status status = ReadTreeLine(line, &runs);
    EXPECT_TRUE(absl::IsInvalidArgument(status)) << line << ": " << status;
    EXPECT_NE(status.message().find(message), std::string::npos) << line << ": " << status;
  }
}

}  // namespace
}  // namespace sstfilter
