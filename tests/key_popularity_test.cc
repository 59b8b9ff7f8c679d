// How Gets spread over the key space (filter/cache_model/key_popularity.h),
// on hand-worked slices and blocks.
#include "filter/cache_model/key_popularity.h"

#include "filter/allocation/tree_traffic.h"

#include <algorithm>
#include <random>
#include <vector>

#include "filter/cache_model/traffic_popularity.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

// A tenth of the key space draws nine tenths of the Gets.
KeyPopularity HotTenth() { return KeyPopularity({{1, 9}, {9, 1}}); }

std::vector<BlockGroup> ByDensity(std::vector<BlockGroup> groups) {
  std::sort(groups.begin(), groups.end(),
            [](const BlockGroup& a, const BlockGroup& b) { return a.density < b.density; });
  return groups;
}

double Blocks(const std::vector<BlockGroup>& groups) {
  double blocks = 0;
  for (const BlockGroup& g : groups) blocks += g.count;
  return blocks;
}

double Requests(const std::vector<BlockGroup>& groups) {
  double requests = 0;
  for (const BlockGroup& g : groups) requests += g.count * g.density;
  return requests;
}

TEST(KeyPopularityTest, SharesAreTheSlicesScaledToOne) {
  const KeyPopularity p = HotTenth();
  EXPECT_FALSE(p.uniform());
  EXPECT_NEAR(p.ShareOf(0, 0.1), 0.9, 1e-12);
  EXPECT_NEAR(p.ShareOf(0.05, 0.1), 0.45, 1e-12);
  EXPECT_NEAR(p.ShareOf(0.05, 0.55), 0.45 + 0.45 / 9 * 1, 1e-12);
  EXPECT_NEAR(p.ShareOf(0, 1), 1, 1e-12);
  EXPECT_EQ(p.ShareOf(0.3, 0.3), 0);
}

// Sharpened(0.25): each slice's first quarter takes three quarters of its
// Gets. Uniform stays uniform; 0.5 leaves the slices as they are.
TEST(KeyPopularityTest, SharpenedGathersEachSlicesGetsAtItsStart) {
  const KeyPopularity p = KeyPopularity({{1, 8}, {1, 2}}).Sharpened(0.25);
  EXPECT_EQ(p.slices(), 4u);
  EXPECT_NEAR(p.ShareOf(0, 0.125), 0.8 * 0.75, 1e-12);
  EXPECT_NEAR(p.ShareOf(0.125, 0.5), 0.8 * 0.25, 1e-12);
  EXPECT_NEAR(p.ShareOf(0.5, 0.625), 0.2 * 0.75, 1e-12);
  EXPECT_NEAR(p.ShareOf(0.625, 1), 0.2 * 0.25, 1e-12);
  EXPECT_TRUE(KeyPopularity().Sharpened(0.1).uniform());
  const KeyPopularity same = HotTenth().Sharpened(0.5);
  EXPECT_EQ(same.slices(), 2u);
  EXPECT_NEAR(same.ShareOf(0, 0.1), 0.9, 1e-12);
}

TEST(KeyPopularityTest, NoSlicesOrNoSharesAreUniform) {
  EXPECT_TRUE(KeyPopularity().uniform());
  EXPECT_TRUE(KeyPopularity(std::vector<KeyPopularity::Slice>{}).uniform());
  EXPECT_TRUE(KeyPopularity({{1, 0}, {2, 0}}).uniform());
  EXPECT_TRUE(KeyPopularity({{0, 5}}).uniform());
  EXPECT_NEAR(KeyPopularity().ShareOf(0.2, 0.7), 0.5, 1e-12);
  // A slice of no width is dropped, its share with it.
  const KeyPopularity p({{1, 1}, {0, 100}, {1, 1}});
  EXPECT_NEAR(p.ShareOf(0, 0.5), 0.5, 1e-12);
}

TEST(KeyPopularityTest, UniformBlocksAreOneGroup) {
  const std::vector<BlockGroup> groups = GroupBlocks(KeyPopularity(), 37.5);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].count, 37.5);
  EXPECT_EQ(groups[0].density, 1);
  EXPECT_TRUE(GroupBlocks(HotTenth(), 0).empty());
}

// 100 blocks: the first 10 draw 9x the mean, the other 90 a ninth of it.
TEST(KeyPopularityTest, BlocksInsideASliceTakeItsDensity) {
  const std::vector<BlockGroup> groups = ByDensity(GroupBlocks(HotTenth(), 100));
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_NEAR(groups[0].count, 90, 1e-9);
  EXPECT_NEAR(groups[0].density, 1.0 / 9, 1e-9);
  EXPECT_NEAR(groups[1].count, 10, 1e-9);
  EXPECT_NEAR(groups[1].density, 9, 1e-9);
}

// 15 blocks: the slices' edge (1.5 blocks in) cuts block 1 in half, so it
// draws (9 + 1/9) / 2 the mean; block 0 is hot, 2-14 cold.
TEST(KeyPopularityTest, ABlockAcrossAnEdgeTakesWhatFallsInIt) {
  const std::vector<BlockGroup> groups = ByDensity(GroupBlocks(HotTenth(), 15));
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_NEAR(groups[0].count, 13, 1e-9);
  EXPECT_NEAR(groups[0].density, 1.0 / 9, 1e-9);
  EXPECT_NEAR(groups[1].count, 1, 1e-9);
  EXPECT_NEAR(groups[1].density, (9 + 1.0 / 9) / 2, 1e-9);
  EXPECT_NEAR(groups[2].count, 1, 1e-9);
  EXPECT_NEAR(groups[2].density, 9, 1e-9);
  EXPECT_NEAR(Requests(groups), 15, 1e-9);
}

// Blocks wider than the slices average them: of 2 blocks over 10 slices,
// the first holds the hot slice (0.91 of the Gets) and four cold ones
// (0.01 each): 0.95 of the Gets, 1.9x the mean.
TEST(KeyPopularityTest, WideBlocksAverageTheirSlices) {
  std::vector<KeyPopularity::Slice> slices(10, {1, 1});
  slices[0].share = 91;  // 91 of 100 Gets in the first tenth.
  const std::vector<BlockGroup> groups = ByDensity(GroupBlocks(KeyPopularity(slices), 2));
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_NEAR(groups[0].density, 2 * 0.05, 1e-9);
  EXPECT_NEAR(groups[1].density, 2 * 0.95, 1e-9);
}

// A fractional count is whole blocks scaled back to it; densities within
// kDensityStep share a group; blocks no Get requests are left out.
TEST(KeyPopularityTest, CountsAreKeptAndAlikeBlocksMerge) {
  const KeyPopularity p({{1, 1}, {1, 1.01}, {2, 0}});
  const std::vector<BlockGroup> groups = GroupBlocks(p, 3.6);  // 4 blocks of 0.9.
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_NEAR(groups[0].count, 1.8, 1e-9);
  EXPECT_NEAR(Requests(groups), 3.6, 1e-9);
  EXPECT_NEAR(Blocks(GroupBlocks(HotTenth(), 1234.4)), 1234.4, 1e-9);
  EXPECT_NEAR(Requests(GroupBlocks(HotTenth(), 1234.4)), 1234.4, 1e-9);
}

// Against each block's own share (ShareOf, a search of the cumulative
// shares): random slices, block counts finer and coarser than them.
TEST(KeyPopularityTest, GroupsMatchEachBlocksShare) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> width(0.1, 3), share(0, 10);
  for (int round = 0; round < 50; ++round) {
    std::vector<KeyPopularity::Slice> slices(1 + rng() % 40);
    for (auto& s : slices) s = {width(rng), rng() % 5 == 0 ? 0.0 : share(rng)};
    const KeyPopularity p(slices);
    const double n = static_cast<double>(1 + rng() % 200);
    std::vector<double> densities;
    for (double b = 0; b < n; ++b) {
      const double d = p.ShareOf(b / n, (b + 1) / n) * n;
      if (d > 1e-9) densities.push_back(d);  // Not a rounding residue.
    }
    const std::vector<BlockGroup> groups = GroupBlocks(p, n);
    double blocks = 0;
    for (const BlockGroup& g : groups) {
      blocks += g.count;
      // Each group's blocks: those within kDensityStep of its mean.
      const auto in_group = std::count_if(densities.begin(), densities.end(), [&](double d) {
        return d >= g.density / kDensityStep * (1 - 1e-9) && d <= g.density * kDensityStep * (1 + 1e-9);
      });
      EXPECT_GE(static_cast<double>(in_group), g.count - 1e-6) << "round " << round;
    }
    EXPECT_NEAR(blocks, static_cast<double>(densities.size()), 1e-6) << "round " << round;
    EXPECT_NEAR(Requests(groups), n, 1e-6 * n) << "round " << round;
  }
}

// A level of `tables` tables of 1,000 keys each, the first drawing `hot`
// times its uniform share and the rest a tenth of theirs.
std::vector<TableTraffic> Level(int tables, double hot) {
  std::vector<TableTraffic> level(tables);
  for (int i = 0; i < tables; ++i) {
    level[i].range.keys = 1000;
    level[i].uniform = 1.0 / tables;
    level[i].share = (i == 0 ? hot : 0.1) / tables;
  }
  return level;
}

// The census's popularity: the finest level's tables as slices, each
// drawing its share over its uniform share.
TEST(KeyPopularityTest, TheFinestLevelsTablesAreTheSlices) {
  TreeTraffic traffic;
  traffic.gets = kMinTrafficGets;
  traffic.levels = {{}, Level(4, 1), Level(10, 5.1)};
  const KeyPopularity p = PopularityOf(traffic);
  ASSERT_EQ(p.slices(), 10u);
  EXPECT_NEAR(p.ShareOf(0, 0.1), 0.85, 1e-9);  // 5.1 of 5.1 + 9 x 0.1.
  EXPECT_NEAR(p.ShareOf(0.1, 0.2), 0.1 / 6, 1e-9);
  // Of two levels alike, the deeper.
  traffic.levels = {{}, Level(10, 1), Level(10, 5.1)};
  EXPECT_NEAR(PopularityOf(traffic).ShareOf(0, 0.1), 0.85, 1e-9);
}

TEST(KeyPopularityTest, TrafficNotKnownIsUniform) {
  TreeTraffic traffic;
  traffic.levels = {{}, Level(10, 5.1)};
  traffic.gets = kMinTrafficGets / 2;
  EXPECT_TRUE(PopularityOf(traffic).uniform());
  traffic.gets = kMinTrafficGets;
  traffic.levels = {{}, Level(kMinPopularityTables - 1, 5.1)};
  EXPECT_TRUE(PopularityOf(traffic).uniform());
}

}  // namespace
}  // namespace sstfilter
