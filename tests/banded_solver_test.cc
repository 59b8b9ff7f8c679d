// The banded encoding's core (filter/banded/): layers solved with bumping
// hold every key (no false negative), absent keys match at 2^-r (the
// equations of a random band), narrow blocks and fewer columns written from
// one solution stay solutions, the memory stays within what the design
// promises, and the bytes do not depend on the keys' order.
#include "filter/banded/solver.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "filter/banded/math.h"
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

HashBlocks Store(const std::vector<uint64_t>& hashes) {
  HashBlocks store;
  for (uint64_t h : hashes) store.Add(h);
  return store;
}

// Layers as the builder plans them (banded/math.h), solved at `columns`
// and written at `columns` with `narrow` narrow blocks in layer 0.
struct Solved {
  std::vector<SolvedLayer> layers;
  std::vector<uint64_t> unplaced;

  std::vector<uint8_t> bytes;
  std::vector<Layer> views;

  void Write(uint32_t columns, uint64_t narrow) {
    uint64_t total = 0;
    for (size_t i = 0; i < layers.size(); ++i) {
      total += LayerBytes(layers[i].blocks, columns, i == 0 ? narrow : 0);
    }
    bytes.assign(total, 0);
    views.clear();
    uint8_t* p = bytes.data();
    for (size_t i = 0; i < layers.size(); ++i) {
      const uint64_t n = i == 0 ? narrow : 0;
      WriteLayer(layers[i], columns, n, p);
      views.push_back({p, layers[i].blocks, n, columns});
      p += LayerBytes(layers[i].blocks, columns, n);
    }
  }
  bool MayMatch(uint64_t h) const {
    return LayersMayMatch(views.data(), static_cast<uint32_t>(views.size()), h);
  }
};

Solved SolveAll(const std::vector<uint64_t>& hashes, uint32_t columns) {
  Solved s;
  std::vector<uint64_t> keys = hashes;
  size_t temp = 0;
  for (uint32_t layer = 0; layer < kBandedMaxLayers; ++layer) {
    uint64_t blocks = layer == 0   ? BandedFirstLayerBlocks(hashes.size())
                      : layer == 1 ? BandedSecondLayerBlocks(hashes.size())
                                   : BandedExtraLayerBlocks(keys.size());
    if (layer >= 2 && keys.empty()) break;
    std::vector<uint64_t> bumped;
    HashBlocks store = Store(keys);
    s.layers.push_back(SolveLayer(&store, layer, blocks, columns, &bumped, &temp));
    keys = std::move(bumped);
  }
  s.unplaced = keys;
  s.Write(columns, 0);
  return s;
}

size_t Positives(const Solved& s, size_t probes) {
  size_t positives = 0;
  for (uint64_t h : Hashes(probes, 2)) positives += s.MayMatch(h) ? 1 : 0;
  return positives;
}

struct Case {
  size_t keys;
  uint32_t columns;
};

class BandedSolverTest : public ::testing::TestWithParam<Case> {};

TEST_P(BandedSolverTest, HoldsEveryKeyAtTwoToTheMinusR) {
  const auto [n, r] = GetParam();
  const std::vector<uint64_t> keys = Hashes(n, 1);
  const Solved s = SolveAll(keys, r);
  EXPECT_TRUE(s.unplaced.empty()) << s.unplaced.size() << " keys left after "
                                  << s.layers.size() << " layers";
  for (uint64_t h : keys) ASSERT_TRUE(s.MayMatch(h)) << "false negative, n=" << n;
  const size_t probes = std::max<size_t>(200000, static_cast<size_t>(400 * std::exp2(r)));
  const size_t positives = Positives(s, probes);
  const double expected = std::exp2(-static_cast<double>(r));
  EXPECT_LE(positives, testing::BinomialUpperBound(probes, expected * 1.02)) << "n=" << n;
  EXPECT_GE(positives, testing::BinomialLowerBound(probes, expected / 1.02)) << "n=" << n;
  // Memory: r bits per slot plus a byte per 64 slots, over 1% more slots
  // than keys, plus layer 1's planned ~1.3%.
  const double bits_per_key = 8.0 * s.bytes.size() / n;
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

// One solution written narrower (fewer columns, narrow blocks) still holds
// every key, at the FP rate of its widths.
TEST(BandedSolverWidthsTest, NarrowerWritesKeepEveryKey) {
  const std::vector<uint64_t> keys = Hashes(50000, 6);
  Solved s = SolveAll(keys, 8);
  ASSERT_TRUE(s.unplaced.empty());
  const uint64_t blocks = s.layers[0].blocks;
  for (const auto& [columns, narrow] : std::vector<std::pair<uint32_t, uint64_t>>{
           {8, blocks / 2}, {6, 0}, {6, blocks}, {3, blocks / 4}, {2, blocks}}) {
    s.Write(columns, narrow);
    for (uint64_t h : keys) ASSERT_TRUE(s.MayMatch(h)) << columns << " " << narrow;
    BandedShape shape;
    shape.num_layers = 1;
    shape.blocks[0] = blocks;
    shape.widths = {columns, narrow};
    const size_t probes = 400000;
    const size_t positives = Positives(s, probes);
    EXPECT_LE(positives, testing::BinomialUpperBound(probes, shape.FpRate() * 1.03))
        << columns << " " << narrow;
    EXPECT_GE(positives, testing::BinomialLowerBound(probes, shape.FpRate() / 1.03))
        << columns << " " << narrow;
  }
}

TEST(BandedSolverBytesTest, IndependentOfKeyOrder) {
  std::vector<uint64_t> keys = Hashes(20000, 3);
  const Solved a = SolveAll(keys, 7);
  std::reverse(keys.begin(), keys.end());
  std::shuffle(keys.begin(), keys.end(), std::mt19937_64(9));
  const Solved b = SolveAll(keys, 7);
  EXPECT_EQ(a.bytes, b.bytes);
}

TEST(BandedSolverBytesTest, CrowdedLayersBumpToTheNext) {
  // A first layer of 2 blocks for 200 keys cannot hold them: it bumps, and
  // the layer marks exactly the keys it bumped; the others it holds.
  const std::vector<uint64_t> keys = Hashes(200, 4);
  std::vector<uint64_t> bumped;
  size_t temp = 0;
  HashBlocks store = Store(keys);
  const SolvedLayer solved = SolveLayer(&store, 0, 2, 7, &bumped, &temp);
  EXPECT_GT(bumped.size(), 60u);
  std::vector<uint8_t> bytes(LayerBytes(2, 7, 0));
  WriteLayer(solved, 7, 0, bytes.data());
  const Layer layer{bytes.data(), 2, 0, 7};
  size_t marked = 0;
  for (uint64_t h : keys) {
    const LayerAnswer a = ProbeLayer(layer, BandOf(LayerHash(h, 0), 2));
    if (a == LayerAnswer::kBumped) {
      ++marked;
    } else {
      EXPECT_EQ(a, LayerAnswer::kMatch) << "kept key lost";
    }
  }
  EXPECT_EQ(marked, bumped.size());
}

// A layer of several sections: each section's last block bumps all its
// keys (their bands would reach the next section), the layer's last block
// does not; every key kept is found, and the temporary memory is one
// section's, not the layer's.
TEST(BandedSolverBytesTest, SectionsEndInABumpedBlock) {
  const uint64_t blocks = 3 * kSectionBlocks + 100;
  const std::vector<uint64_t> keys = Hashes(blocks * kSlotsPerBlock * 98 / 100, 7);
  std::vector<uint64_t> bumped;
  size_t temp = 0;
  HashBlocks store = Store(keys);
  const SolvedLayer solved = SolveLayer(&store, 0, blocks, 7, &bumped, &temp);
  for (uint64_t s = 1; s <= 3; ++s) {
    EXPECT_EQ(solved.codes[s * kSectionBlocks - 1], kNumThresholdCodes - 1) << s;
  }
  EXPECT_NE(solved.codes[blocks - 1], kNumThresholdCodes - 1);
  EXPECT_LT(bumped.size(), keys.size() / 50);
  EXPECT_LT(temp, 3 * kSectionBlocks * kSlotsPerBlock * sizeof(uint64_t));
  std::vector<uint8_t> bytes(LayerBytes(blocks, 7, 0));
  WriteLayer(solved, 7, 0, bytes.data());
  const Layer layer{bytes.data(), blocks, 0, 7};
  size_t marked = 0;
  for (uint64_t h : keys) {
    const LayerAnswer a = ProbeLayer(layer, BandOf(h, blocks));
    marked += a == LayerAnswer::kBumped;
    ASSERT_NE(a, LayerAnswer::kNoMatch) << "kept key lost";
  }
  EXPECT_EQ(marked, bumped.size());
}

TEST(BandedProbesTest, BandsStayInsideTheLayer) {
  for (uint64_t blocks : {1, 2, 3, 1000}) {
    for (uint64_t h : Hashes(10000, 5)) {
      const Band band = BandOf(h, blocks);
      ASSERT_LE(band.start + kSlotsPerBlock, blocks * kSlotsPerBlock);
      ASSERT_EQ(band.coefficients & 1, 1u);
      ASSERT_LT(band.fingerprint, 1u << kMaxColumns);
    }
  }
}

}  // namespace
}  // namespace sstfilter::banded
