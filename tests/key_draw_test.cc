// How sstfilter_db_bench's skewed shapes draw keys (bench/db_bench/key_draw.h):
// the draws follow the distribution ShareOf states, worked out by hand for
// the zipfian ranks and the recency weights, and ShareOf agrees with the
// draws' counts.
#include "bench/db_bench/key_draw.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "bench/db_bench/workload.h"
#include "gtest/gtest.h"

namespace sstfilter::db_bench {
namespace {

// The share of `draws` draws that land in [lo, hi].
double Drawn(const KeyDraw& draw, uint64_t lo, uint64_t hi, int draws = 200000) {
  std::mt19937_64 rng(7);
  int in = 0;
  for (int i = 0; i < draws; ++i) {
    const uint64_t v = draw(rng);
    in += v >= lo && v <= hi;
  }
  return static_cast<double>(in) / draws;
}

TEST(KeyDrawTest, UniformSharesAreWidths) {
  const KeyDraw draw(LookupTraffic{}, 1000);
  EXPECT_DOUBLE_EQ(draw.ShareOf(0, 999), 1);
  EXPECT_DOUBLE_EQ(draw.ShareOf(100, 199), 0.1);
  EXPECT_NEAR(Drawn(draw, 100, 199), 0.1, 0.005);
}

TEST(KeyDrawTest, ZipfRanksOverScatteredRanges) {
  LookupTraffic traffic;
  traffic.zipf_theta = 1;
  traffic.ranges = 10;
  const KeyDraw draw(traffic, 1000);  // Ranges of 100 keys.
  // P(rank r) = (1 / (r + 1)) / H(10): the hottest range 1 / 2.928968.
  std::vector<double> shares;
  for (uint64_t r = 0; r < 10; ++r) shares.push_back(draw.ShareOf(100 * r, 100 * r + 99));
  std::sort(shares.rbegin(), shares.rend());
  const double h10 = 2.9289682539682538;
  for (int r = 0; r < 10; ++r) EXPECT_NEAR(shares[r], 1 / ((r + 1) * h10), 1e-12) << r;
  // The draws agree, range by range, and half a range holds half.
  for (uint64_t r = 0; r < 10; ++r) {
    EXPECT_NEAR(Drawn(draw, 100 * r, 100 * r + 99), draw.ShareOf(100 * r, 100 * r + 99), 0.006);
  }
  EXPECT_NEAR(draw.ShareOf(0, 49), draw.ShareOf(0, 99) / 2, 1e-12);
  // A new hot set places the ranks elsewhere.
  traffic.hot_seed = 2;
  const KeyDraw moved(traffic, 1000);
  int same = 0;
  for (uint64_t r = 0; r < 10; ++r) {
    same += moved.ShareOf(100 * r, 100 * r + 99) == draw.ShareOf(100 * r, 100 * r + 99);
  }
  EXPECT_LT(same, 10);
}

TEST(KeyDrawTest, RecencyWeighsTheLastWrittenMost) {
  LookupTraffic traffic;
  traffic.recency = true;
  traffic.recent_scale = 10;
  auto written = std::make_shared<std::vector<uint64_t>>();
  for (uint64_t v = 0; v < 1000; ++v) written->push_back(999 - v);  // Written last: key 0.
  traffic.written = written;
  const KeyDraw draw(traffic, 1000);
  // The k-th from the end: exp(-k/10) - exp(-(k+1)/10).
  EXPECT_NEAR(draw.ShareOf(0, 0), 1 - std::exp(-0.1), 1e-12);
  EXPECT_NEAR(draw.ShareOf(0, 9), 1 - std::exp(-1.0), 1e-12);
  EXPECT_NEAR(draw.ShareOf(0, 999), 1, 1e-12);
  EXPECT_NEAR(Drawn(draw, 0, 9), 1 - std::exp(-1.0), 0.005);
  EXPECT_NEAR(Drawn(draw, 10, 29), std::exp(-1.0) - std::exp(-3.0), 0.005);
}

TEST(KeyNumberTest, ReadsBackMakeKeysNumber) {
  for (uint64_t v : {0ull, 1ull, 255ull, 1500000ull, 0x0102030405060708ull}) {
    EXPECT_EQ(KeyNumber(MakeKey(v, 16), 16), v);
    EXPECT_EQ(KeyNumber(MakeKey(v, 16) + "0", 16), v) << "read missing";
  }
  EXPECT_EQ(KeyNumber(MakeKey(0x1234, 4), 4), 0x1234u);
}

}  // namespace
}  // namespace sstfilter::db_bench
