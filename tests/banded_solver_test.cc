// The banded encoding's core (filter/banded/): layers solved with bumping
// hold every key (no false negative), absent keys match at 2^-r (the
// equations of a random band), the memory stays within what the design
// promises, and the bytes do not depend on the keys' order.
#include "filter/banded/solver.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "filter/banded/probes.h"
#include "gtest/gtest.h"
#include "tests/db_test_util.h"

namespace sstfilter::banded {
namespace {

std::vector<uint64_t> Hashes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> h(n);
  for (uint64_t& x : h) x = rng();
  return h;
}

size_t TotalBytes(const SolvedLayers& s) {
  size_t bytes = 0;
  for (const auto& layer : s.bytes) bytes += layer.size();
  return bytes;
}

struct Case {
  size_t keys;
  uint32_t columns;
};

class BandedSolverTest : public ::testing::TestWithParam<Case> {};

TEST_P(BandedSolverTest, HoldsEveryKeyAtTwoToTheMinusR) {
  const auto [n, r] = GetParam();
  const std::vector<uint64_t> keys = Hashes(n, 1);
  const SolvedLayers s = SolveLayers(keys, r);
  EXPECT_TRUE(s.unplaced.empty()) << s.unplaced.size() << " keys left after " << s.blocks.size()
                                  << " layers";
  for (uint64_t h : keys) ASSERT_TRUE(LayersMayMatch(s, r, h)) << "false negative, n=" << n;
  const size_t probes = std::max<size_t>(200000, static_cast<size_t>(400 * std::exp2(r)));
  size_t positives = 0;
  for (uint64_t h : Hashes(probes, 2)) positives += LayersMayMatch(s, r, h) ? 1 : 0;
  const double expected = std::exp2(-static_cast<double>(r));
  EXPECT_LE(positives, testing::BinomialUpperBound(probes, expected * 1.02)) << "n=" << n;
  EXPECT_GE(positives, testing::BinomialLowerBound(probes, expected / 1.02)) << "n=" << n;
  // Memory: r bits per slot plus a byte per 64 slots, over 1% more slots
  // than keys, plus the later layers' few percent.
  const double bits_per_key = 8.0 * TotalBytes(s) / n;
  if (n >= 10000) {
    EXPECT_LT(bits_per_key, (r + 8.0 / 64) * 1.035) << "n=" << n;
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, BandedSolverTest,
                         ::testing::Values(Case{1, 7}, Case{63, 7}, Case{500, 7},
                                           Case{10000, 7}, Case{100000, 7}, Case{1000000, 7},
                                           Case{100000, 1}, Case{100000, 4}, Case{100000, 12},
                                           Case{20000, 16}),
                         [](const auto& info) {
                           return "n" + std::to_string(info.param.keys) + "_r" +
                                  std::to_string(info.param.columns);
                         });

TEST(BandedSolverBytesTest, IndependentOfKeyOrder) {
  std::vector<uint64_t> keys = Hashes(20000, 3);
  const SolvedLayers a = SolveLayers(keys, 7);
  std::reverse(keys.begin(), keys.end());
  std::shuffle(keys.begin(), keys.end(), std::mt19937_64(9));
  const SolvedLayers b = SolveLayers(keys, 7);
  EXPECT_EQ(a.blocks, b.blocks);
  EXPECT_EQ(a.bytes, b.bytes);
}

TEST(BandedSolverBytesTest, CrowdedLayersBumpToTheNext) {
  // A first layer of 2 blocks for 200 keys cannot hold them: it bumps, and
  // the keys it bumped are held by later layers or reported unplaced.
  const std::vector<uint64_t> keys = Hashes(200, 4);
  std::vector<uint8_t> bytes(2 * BlockBytes(7));
  std::vector<uint64_t> bumped;
  SolveLayer(keys, 0, 2, 7, bytes.data(), &bumped);
  EXPECT_GT(bumped.size(), 60u);
  size_t marked = 0;
  for (uint64_t h : keys) {
    const Band band = BandOf(LayerHash(h, 0), 2, 7);
    if (Bumped(bytes.data(), 7, band.start)) {
      ++marked;
    } else {
      EXPECT_TRUE(BandMatches(bytes.data(), 7, band)) << "kept key lost";
    }
  }
  EXPECT_EQ(marked, bumped.size());
}

TEST(BandedProbesTest, BandsStayInsideTheLayer) {
  for (uint64_t blocks : {2, 3, 1000}) {
    for (uint64_t h : Hashes(10000, 5)) {
      const Band band = BandOf(h, blocks, 7);
      ASSERT_LE(band.start + kSlotsPerBlock, blocks * kSlotsPerBlock);
      ASSERT_EQ(band.coefficients & 1, 1u);
      ASSERT_LT(band.fingerprint, 1u << 7);
    }
  }
}

}  // namespace
}  // namespace sstfilter::banded
