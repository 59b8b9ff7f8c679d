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
  TreeTextReader reader;
  for (const absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    const absl::Status status = reader.Read(std::string_view(line.data(), line.size()));
    EXPECT_TRUE(status.ok()) << status;
  }
  return reader.Tree();
}

// A tree with every field away from its default.
TreeRuns EveryField() {
  TreeRuns runs;
  runs.targets = LevelTargets{true, 2, true, 8, 12345.5, true};
  runs.l0_tables = {RunCensus{100, 1, 100, 1000, 1}, RunCensus{200, 1, 0, 0, 1}};
  runs.levels.resize(3);
  runs.levels[2] = RunCensus{5000, 5, 3000, 30000, 0.75, 1000};
  runs.last_flush_keys = 4321;
  runs.deepest_unfiltered = true;
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
  EXPECT_EQ(back.levels[2].unfiltered_keys, 1000u);
  EXPECT_EQ(back.targets.base_entries, 12345.5);
  EXPECT_TRUE(back.targets.dynamic);
  EXPECT_TRUE(back.targets.l0_stays);
  EXPECT_TRUE(back.deepest_unfiltered);
  EXPECT_EQ(back.blocks.index_bytes, 4096);
  EXPECT_EQ(back.last_flush_keys, 4321u);
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

// Automatic compactions off: no level targets, L0's tables stay.
TEST(TreeTextTest, L0StayingWithoutTargetsReadsBack) {
  TreeRuns runs;
  runs.targets.l0_stays = true;
  const std::string text = TreeText(runs);
  EXPECT_EQ(text, "targets l0_stays\n");
  const TreeRuns back = ReadLines(text);
  EXPECT_TRUE(back.targets.l0_stays);
  EXPECT_FALSE(back.targets.leveled);
}

TEST(TreeTextTest, OtherFormsLinesAreNotFound) {
  TreeTextReader reader;
  EXPECT_TRUE(absl::IsNotFound(reader.Read("policy sstfilter.bloom:10")));
  EXPECT_TRUE(absl::IsNotFound(reader.Read("   ")));
  EXPECT_TRUE(absl::IsNotFound(reader.Read("Lx keys=1")));
  EXPECT_TRUE(reader.Tree().levels.empty());
}

TEST(TreeTextTest, BadFieldsAreNamed) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"L1 keys=ten", "keys=ten is not a number"},
      {"L1 keys=-5", "keys=-5 is not a number >= 0"},
      {"L1 keys=5 reach=-0.5", "reach=-0.5 is not a number >= 0"},
      {"L1 keys=5 reach=1.5", "reach above 1"},
      {"L1 keys=5 fixed_keys=6", "fixed_keys above keys"},
      {"L64 keys=1", "levels go from L0 to L63"},
      {"L99999999999 keys=1", "levels go from L0 to L63"},
      {"targets leveled l0_tables=-7", "l0_tables=-7 is not a number >= 0"},
      {"blocks entries=0 data_bytes=1", "blocks of no entries"},
      {"misses gets=-5", "gets=-5 is not a number >= 0"},
      {"traffic_table L1 share=2", "a share above 1"},
      {"hit_share 0.3 0.3", "0.3 given twice"},
      {"targets leveled leveled", "leveled given twice"},
      {"L1 keys=1 colour=red", "unknown field colour"},
      {"L1 keys=1 keys=2", "keys given twice"},
      {"targets leveled sideways", "unknown word sideways"},
      {"hit_share 1.5", "expected hit_share <share in [0, 1]>"},
      {"hit_share", "expected hit_share <share in [0, 1]>"},
      {"traffic_table X1 file=1", "expected a level"},
      {"traffic_table", "expected a level"},
      {"traffic_table L1 smallest=\\q", "bad escape in smallest"},
      {"blocks entries=nan", "entries=nan is not a number"},
      {"last_flush keys=5 colour=red", "unknown field colour"},
  };
  for (const auto& [line, message] : cases) {
    TreeTextReader reader;
    const absl::Status status = reader.Read(line);
    EXPECT_TRUE(absl::IsInvalidArgument(status)) << line << ": " << status;
    EXPECT_NE(status.message().find(message), std::string::npos) << line << ": " << status;
    // Nothing of a refused line is kept.
    EXPECT_EQ(TreeText(reader.Tree()), "") << line;
  }
}

// Each line but L0's and traffic_table's is one a tree: a second is refused
// naming it, and leaves the first as it was.
TEST(TreeTextTest, ALineOneATreeGivenTwiceIsRefused) {
  for (const std::string line :
       {"L2 keys=5", "targets leveled", "blocks entries=1", "hit_share 0.5", "misses gets=1",
        "traffic gets=1", "last_flush keys=3"}) {
    TreeTextReader reader;
    ASSERT_TRUE(reader.Read(line).ok()) << line;
    const std::string once = TreeText(reader.Tree());
    const absl::Status again = reader.Read(line);
    EXPECT_TRUE(absl::IsInvalidArgument(again)) << line << ": " << again;
    EXPECT_NE(again.message().find("given twice"), std::string::npos) << again;
    EXPECT_EQ(TreeText(reader.Tree()), once) << line;
  }
  TreeTextReader reader;
  // A refused line counts for nothing: a good one may follow it.
  EXPECT_FALSE(reader.Read("targets leveled multiplier=x").ok());
  EXPECT_TRUE(reader.Read("targets leveled multiplier=8").ok());
  EXPECT_EQ(reader.Tree().targets.multiplier, 8);
  EXPECT_TRUE(reader.Read("L0 keys=1").ok());
  EXPECT_TRUE(reader.Read("L0 keys=2").ok());
  EXPECT_TRUE(reader.Read("traffic_table L0 file=1").ok());
  EXPECT_TRUE(reader.Read("traffic_table L0 file=2").ok());
  EXPECT_EQ(reader.Tree().l0_tables.size(), 2u);
  EXPECT_EQ(reader.Tree().traffic->l0.size(), 2u);
}

}  // namespace
}  // namespace sstfilter
