// The cache model (filter/cache_model/cache_reads.h) on hand-worked trees.
#include "filter/cache_model/cache_reads.h"

#include <cmath>
#include <list>
#include <random>
#include <unordered_map>
#include <vector>

#include "gtest/gtest.h"

namespace sstfilter {
namespace {

RunBlocks Blocks(double keys, double filter_blocks, double fp, double index_blocks,
              double data_blocks) {
  RunBlocks run;
  run.keys = keys;
  run.filter_blocks = filter_blocks, run.filter_bytes = filter_blocks;  // 1 byte a block.
  run.fp_rate = fp;
  run.index_blocks = index_blocks, run.index_bytes = index_blocks;
  run.data_blocks = data_blocks, run.data_bytes = data_blocks;
  return run;
}

// A workload of hand-worked blocks: their bytes all they take.
CacheWorkload Bare(double capacity, double hit_share,
                   double high_pri_ratio = CacheWorkload::kDefaultHighPriRatio) {
  CacheWorkload workload{capacity, hit_share, high_pri_ratio};
  workload.block_overhead_bytes = 0;
  return workload;
}

TEST(CacheReadsTest, NothingIsReadWhenEveryBlockFits) {
  const std::vector<RunBlocks> runs = {Blocks(100, 10, 0.01, 5, 50), Blocks(900, 90, 0.01, 45, 450)};
  const GetReads reads = PredictReads(runs, Bare(650, 0.5));
  EXPECT_EQ(reads.total(), 0);
}

// A tree that compactions rewrite: each new filter partition is read into
// the cache as its table opens, one miss each in the window, even in a
// cache that holds every block. 100 filter partitions each checked by 1
// absent Get in 100.
TEST(CacheReadsTest, NewFilterPartitionsMissOnceAWindow) {
  const std::vector<RunBlocks> runs = {Blocks(1000, 100, 0.01, 5, 50)};
  CacheWorkload churned = Bare(1000, 0);
  EXPECT_EQ(PredictReads(runs, churned).total(), 0);
  churned.new_filter_share = 0.1;  // 10 new partitions over 10,000 Gets.
  churned.window_gets = 10000;
  GetReads reads = PredictReads(runs, churned);
  EXPECT_NEAR(reads.filter, 10.0 / 10000, 1e-12);
  EXPECT_EQ(reads.index + reads.data, 0);
  // Over 100 Gets, whether or not one asks for them; and rewritten 2.5
  // times over (tables written and compacted away within the window).
  churned.window_gets = 100;
  EXPECT_NEAR(PredictReads(runs, churned).filter, 10.0 / 100, 1e-12);
  churned.new_filter_share = 2.5;
  EXPECT_NEAR(PredictReads(runs, churned).filter, 250.0 / 100, 1e-12);
  // No cache: every check misses, and each new partition once more.
  churned.capacity_bytes = 0;
  churned.new_filter_share = 0.1, churned.window_gets = 10000;
  EXPECT_NEAR(PredictReads(runs, churned).filter, 1 + 10.0 / 10000, 1e-12);
}

// No cache: every check reads its filter partition, every false positive
// (or the key's own run) an index partition and a data block.
TEST(CacheReadsTest, WithoutACacheEveryRequestIsARead) {
  std::vector<RunBlocks> runs = {Blocks(250, 10, 0.1, 5, 50), Blocks(750, 30, 0.1, 15, 150)};
  runs[0].reach = 1, runs[1].reach = 0.5;
  GetReads absent = PredictReads(runs, Bare(0, 0));
  EXPECT_NEAR(absent.filter, 1.5, 1e-9);
  EXPECT_NEAR(absent.index, 0.1 + 0.05, 1e-9);
  EXPECT_NEAR(absent.data, 0.15, 1e-9);
  // Present: a quarter in the first run, the rest checks both filters.
  const GetReads present = PredictReads(runs, Bare(0, 1));
  EXPECT_NEAR(present.filter, 1 + 0.75, 1e-9);
  EXPECT_NEAR(present.index, (0.75 * 0.1 + 0.25) + 0.75, 1e-9);
  EXPECT_NEAR(present.data, present.index, 1e-9);
  // A run without a filter passes every Get on to its index and data.
  runs[0].filter_blocks = 0;
  absent = PredictReads(runs, Bare(0, 0));
  EXPECT_NEAR(absent.filter, 0.5, 1e-9);
  EXPECT_NEAR(absent.index, 1 + 0.05, 1e-9);
}

// A run whose tables were built under different plans: 40% of its keys in
// tables with a filter (FP 1%), the rest without. A Get reaching the rest
// checks no filter and reads their index and data; the filter blocks are
// checked by the 40% alone, so in an LRU of half of them, half of those
// checks miss.
TEST(CacheReadsTest, AGetToATableWithoutAFilterChecksNone) {
  std::vector<RunBlocks> runs = {Blocks(1000, 100, 0.4 * 0.01 + 0.6, 50, 500)};
  runs[0].filtered_share = 0.4;
  const GetReads absent = PredictReads(runs, Bare(0, 0));
  EXPECT_NEAR(absent.filter, 0.4, 1e-9);
  EXPECT_NEAR(absent.index, 0.4 * 0.01 + 0.6, 1e-9);
  EXPECT_NEAR(absent.data, absent.index, 1e-9);
  runs = {Blocks(1000, 100, 0, 0, 0)};  // Filter blocks alone in the cache.
  runs[0].filtered_share = 0.4;
  EXPECT_NEAR(PredictReads(runs, Bare(50, 0)).filter, 0.4 * 0.5, 1e-9);
}

// Uniform requests to N blocks in an LRU of C blocks hit C/N of the time.
TEST(CacheReadsTest, UniformBlocksHitInProportionToTheCache) {
  const std::vector<RunBlocks> runs = {Blocks(1000, 100, 0, 0, 0)};
  for (double capacity : {10.0, 50.0, 90.0}) {
    EXPECT_NEAR(PredictReads(runs, Bare(capacity, 0)).filter, 1 - capacity / 100, 1e-9) << capacity;
  }
}

// The cache charges each block its overhead besides its bytes: 100
// one-byte blocks charged 9 more each fill 1,000 bytes, so 500 hold half.
TEST(CacheReadsTest, EachBlockIsChargedItsOverhead) {
  const std::vector<RunBlocks> runs = {Blocks(1000, 100, 0, 0, 0)};
  CacheWorkload workload = Bare(500, 0);
  workload.block_overhead_bytes = 9;
  EXPECT_NEAR(PredictReads(runs, workload).filter, 0.5, 1e-9);
  EXPECT_EQ(CacheWorkload().block_overhead_bytes, CacheWorkload::kRocksDbBlockOverhead);
}

// Hot index blocks stay, cold data blocks share what is left: with
// T = 1000 ln 2 Gets, a data block (1/1000 per Get) is cached half the
// time (500 of 1000 bytes) and the 10 index blocks (0.1 per Get) all of
// it: capacity 510.
TEST(CacheReadsTest, HotBlocksStayAndColdOnesShareTheRest) {
  const std::vector<RunBlocks> runs = {Blocks(1000, 0, 1, 10, 1000)};
  const GetReads reads = PredictReads(runs, Bare(510, 1));
  EXPECT_NEAR(reads.data, 0.5, 1e-6);
  EXPECT_LT(reads.index, 1e-20);
  EXPECT_EQ(reads.filter, 0);
}

// The high-priority pool keeps index and filter blocks from the data
// blocks that pass through: with all of the cache as the pool, 100 bytes of
// filters stay whatever the data; with none, they share an LRU list.
TEST(CacheReadsTest, TheHighPriorityPoolKeepsFiltersFromData) {
  const std::vector<RunBlocks> runs = {Blocks(1000, 100, 1, 0, 10000)};
  CacheWorkload workload = Bare(100, 0, 1.0);
  GetReads reads = PredictReads(runs, workload);
  EXPECT_EQ(reads.filter, 0);
  EXPECT_NEAR(reads.data, 1, 1e-9);
  workload.high_pri_ratio = 0;
  reads = PredictReads(runs, workload);
  EXPECT_GT(reads.filter, 0.1);
  EXPECT_LT(reads.data, 1);
  // Half the cache: the filters fill their half and get some of the rest.
  workload.high_pri_ratio = 0.5;
  const GetReads half = PredictReads(runs, workload);
  EXPECT_LT(half.filter, reads.filter);
  EXPECT_LT(half.filter, 0.5);
}

// Smaller filters cost their false positives and buy their own hits.
TEST(CacheReadsTest, SmallerFiltersStayCachedWhereBigOnesMiss) {
  const RunBlocks big = Blocks(1000, 100, 0.01, 50, 5000);
  RunBlocks small = big;
  small.filter_blocks = small.filter_bytes = 40;
  small.fp_rate = 0.1;
  const CacheWorkload workload = Bare(60, 0);
  const GetReads big_reads = PredictReads({big}, workload);
  const GetReads small_reads = PredictReads({small}, workload);
  EXPECT_GT(big_reads.filter, 0.3);
  EXPECT_LT(small_reads.filter, big_reads.filter / 5);
  EXPECT_LT(small_reads.total(), big_reads.total());
}

// The share of `requests` that miss an LRU cache of `capacity` blocks
// when each requests the block holding a key drawn from `popularity`
// (slice by share, then uniformly in it) among `blocks` equal ones.
double SimulatedMisses(const std::vector<KeyPopularity::Slice>& slices, int blocks,
                       size_t capacity, int requests) {
  std::mt19937_64 rng(7);
  std::vector<double> shares, starts;
  double start = 0, width = 0;
  for (const auto& s : slices) width += s.width;
  for (const auto& s : slices) shares.push_back(s.share), starts.push_back(start / width), start += s.width;
  std::discrete_distribution<size_t> slice(shares.begin(), shares.end());
  std::uniform_real_distribution<double> within(0, 1);
  std::list<int> lru;  // Most recent first.
  std::unordered_map<int, std::list<int>::iterator> where;
  int misses = 0;
  for (int i = 0; i < requests; ++i) {
    const size_t s = slice(rng);
    const double x = starts[s] + within(rng) * slices[s].width / width;
    const int block = std::min(static_cast<int>(x * blocks), blocks - 1);
    auto it = where.find(block);
    if (it != where.end()) {
      lru.erase(it->second);
    } else {
      if (i >= requests / 4) ++misses;  // After the warm-up.
      if (lru.size() == capacity) where.erase(lru.back()), lru.pop_back();
    }
    lru.push_front(block);
    where[block] = lru.begin();
  }
  return misses / (requests * 0.75);
}

// Under skew the model's filter reads are an LRU's misses (Che's
// approximation, checked against a simulated LRU list): hot blocks stay,
// so a skewed workload misses far less than a uniform one.
TEST(CacheReadsTest, SkewedGetsMissAsAnLruDoes) {
  const std::vector<RunBlocks> runs = {Blocks(10000, 1000, 0, 0, 0)};
  for (const auto& slices : std::vector<std::vector<KeyPopularity::Slice>>{
           {{1, 9}, {9, 1}}, {{1, 50}, {3, 30}, {6, 15}, {10, 5}}}) {
    CacheWorkload workload = Bare(200, 0, 0);
    workload.popularity = KeyPopularity(slices);
    const double model = PredictReads(runs, workload).filter;
    const double lru = SimulatedMisses(slices, 1000, 200, 400000);
    EXPECT_NEAR(model, lru, 0.03 * lru) << slices.size() << " slices";
    EXPECT_LT(model, 0.75 * PredictReads(runs, Bare(200, 0, 0)).filter);
  }
}

}  // namespace
}  // namespace sstfilter
