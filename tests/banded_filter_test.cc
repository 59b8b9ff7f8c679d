// The banded encoding as a filter (filter/banded/filter.h): its accuracy
// target against the Bloom model written out here, no false negatives
// (empty, duplicates, many sizes, every read path), FP rate within 5% of
// the model on several key shapes, memory per key, the size formula and its
// inverse, other sizes for optimize_filters_for_memory, the forced
// fallback, layers added beyond the plan, and damaged trailers or random
// bytes read without crashing and failing open.
#include "filter/banded/filter.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "filter/encodings.h"
#include "gtest/gtest.h"
#include "tests/db_test_util.h"
#include "tests/filter_test_util.h"

namespace sstfilter {
namespace {

using testing::ExactBytes;
using testing::KeyShape;
using testing::ShapedKeys;
using testing::Views;

std::string Build(const std::vector<std::string>& keys, double bits_per_key = 10,
                  BandedBuildOptions options = {}) {
  BandedFilterBuilder builder(bits_per_key, options);
  for (const std::string& key : keys) builder.AddKey(key);
  std::string filter;
  builder.Finish(&filter);
  return filter;
}

void ExpectAllMatch(std::string_view filter, const std::vector<std::string>& keys) {
  for (SimdLevel level : SupportedSimdLevels()) {
    const BandedFilterReader reader(filter, level);
    size_t misses = 0;
    for (const std::string& key : keys) misses += !reader.MayMatch(key);
    EXPECT_EQ(misses, 0u) << keys.size() << " keys";
    std::vector<std::string_view> views = Views(keys);
    std::unique_ptr<bool[]> out(new bool[views.size() + 1]);
    reader.MayMatchBatch(views, out.get());
    EXPECT_EQ(std::count(out.get(), out.get() + views.size(), false), 0) << keys.size();
    const BandedFilterReader::OnceContext once(level);
    for (const std::string& key : keys) {
      ASSERT_TRUE(BandedFilterReader::MayMatchOnce(filter, key, once));
    }
  }
}

double MeasuredFp(std::string_view filter, const std::vector<std::string>& absent) {
  const BandedFilterReader reader(filter);
  size_t positives = 0;
  for (const std::string& key : absent) positives += reader.MayMatch(key);
  return double(positives) / double(absent.size());
}

// Blocked Bloom FP (Putze et al.): Poisson(lambda) keys per 512-bit line,
// k probes: the cache-local encoding's model, the target.
double BlockedBloomFp(double lambda, int k) {
  double fp = 0;
  for (int j = 0; j <= static_cast<int>(lambda + 40 * std::sqrt(lambda) + 100); ++j) {
    const double pmf = std::exp(j * std::log(lambda) - lambda - std::lgamma(j + 1.0));
    fp += pmf * std::pow(1 - std::pow(1 - 1.0 / 512, double(j) * k), k);
  }
  return fp;
}

TEST(BandedMath, WidthsMeetTheTarget) {
  for (double bpk : {4.0, 7.5, 10.0, 12.0, 16.0, 20.0}) {
    const double target = BandedTargetFpRate(bpk);
    EXPECT_NEAR(target / BlockedBloomFp(512 / bpk, CacheLocalBloomBuilder(bpk).num_probes()), 1,
                1e-6)
        << bpk;
    const BandedShape s = BandedPlan(1000000, bpk);
    EXPECT_EQ(s.widths.columns, static_cast<uint32_t>(std::ceil(-std::log2(target)))) << bpk;
    // Narrow blocks bring the FP up to the target, never past it.
    EXPECT_LE(s.FpRate(), target * (1 + 1e-9)) << bpk;
    EXPECT_GT(s.FpRate(), target * 0.999) << bpk;
  }
  EXPECT_EQ(BandedPlan(1000000, 10).widths.columns, 7u);
}

TEST(BandedMath, FitWidthsSpendsTheMostBitsWithinTheBudget) {
  const BandedShape planned = BandedPlan(100000, 10);
  for (uint64_t budget = planned.LayerBytes() / 3; budget < planned.LayerBytes() * 5 / 4;
       budget += 97) {
    const BandedWidths w = FitBandedWidths(planned, 8, budget);
    ASSERT_GE(w.columns, 1u);
    BandedShape s = planned;
    s.widths = w;
    ASSERT_LE(s.LayerBytes(), budget);
    // One narrow block fewer (or one column more) would not fit.
    BandedShape wider = s;
    if (w.narrow_blocks > 0) {
      --wider.widths.narrow_blocks;
    } else {
      wider.widths = {w.columns + 1, wider.blocks[0]};
    }
    if (wider.widths.columns <= 8) {
      EXPECT_GT(wider.LayerBytes(), budget) << budget;
    }
  }
}

TEST(BandedFilter, EmptyMatchesNothing) {
  const std::string filter = Build({});
  const BandedFilterReader reader(filter);
  EXPECT_EQ(reader.state(), FilterState::kMatchNothing);
  EXPECT_EQ(reader.body(), kBandedBodySmallBloom);
  EXPECT_FALSE(reader.MayMatch("absent"));
}

TEST(BandedFilter, NoFalseNegatives) {
  for (size_t n : {1, 2, 10, 100, 300, 1000, 5000, 20000, 200000, 400000}) {
    const std::vector<std::string> keys = ShapedKeys(KeyShape::kRandom16, 0, n);
    const std::string filter = Build(keys);
    ExpectAllMatch(filter, keys);
    if (n >= 1000) {
      EXPECT_EQ(BandedFilterReader(filter).body(), kBandedBodyLayers) << n;
    }
  }
}

TEST(BandedFilter, NoFalseNegativesAtOtherAccuracies) {
  const std::vector<std::string> keys = ShapedKeys(KeyShape::kUserDecimal, 0, 30000);
  for (double bpk : {0.5, 1.0, 2.0, 3.3, 6.0, 14.0, 23.0, 40.0, 100.0}) {
    const std::string filter = Build(keys, bpk);
    ExpectAllMatch(filter, keys);
  }
}

TEST(BandedFilter, DuplicatesCostNoFailure) {
  std::vector<std::string> keys = ShapedKeys(KeyShape::kRandom16, 0, 20000);
  std::vector<std::string> twice = keys;
  twice.insert(twice.end(), keys.begin(), keys.end());  // Not adjacent: kept.
  BandedFilterBuilder builder(10);
  for (const std::string& key : twice) builder.AddKey(key);
  builder.AddKey(keys.back());  // Adjacent: dropped.
  EXPECT_EQ(builder.NumEntries(), twice.size());
  std::string filter;
  builder.Finish(&filter);
  EXPECT_EQ(BandedFilterReader(filter).body(), kBandedBodyLayers);
  EXPECT_EQ(builder.num_fallbacks(), 0u);
  ExpectAllMatch(filter, keys);
}

TEST(BandedFilter, BuilderIsReusable) {
  BandedFilterBuilder builder(10);
  for (int round = 0; round < 3; ++round) {
    const std::vector<std::string> keys =
        ShapedKeys(KeyShape::kRandom16, round * 100000, 5000 + round * 3000);
    for (const std::string& key : keys) builder.AddKey(key);
    std::string filter;
    builder.Finish(&filter);
    EXPECT_EQ(filter, Build(keys)) << round;
    ExpectAllMatch(filter, keys);
  }
}

// The FP target met on every key shape, and within 5% of the model.
TEST(BandedFilter, FpRateWithinFivePercentOfModel) {
  constexpr size_t kKeys = 1000000, kQueries = 4000000;
  const double model = kBandedEncodingInfo.expected_fp_rate(kKeys, 10);
  EXPECT_LE(model, BandedTargetFpRate(10));
  for (KeyShape shape : {KeyShape::kRandom16, KeyShape::kLittleEndian64, KeyShape::kUserDecimal}) {
    const std::string filter = Build(ShapedKeys(shape, 0, kKeys));
    ASSERT_EQ(BandedFilterReader(filter).body(), kBandedBodyLayers);
    const double fp = MeasuredFp(filter, ShapedKeys(shape, kKeys, kQueries));
    EXPECT_NEAR(fp / model, 1.0, 0.05) << bench::KeyShapeName(shape) << " fp " << fp;
  }
}

TEST(BandedFilter, MemoryPerKey) {
  // At 10 bits/key: 7 columns, 22.6% of layer 0's blocks at 6, 1% spare
  // slots, a byte per block, layer 1's ~1.3%: ~7.1 bits/key.
  for (size_t n : {size_t{100000}, size_t{1000000}}) {
    BandedFilterBuilder builder(10);
    const double bits_per_key = 8.0 * double(builder.FilterSize(n)) / double(n);
    EXPECT_LT(bits_per_key, 7.2) << n;
    EXPECT_GT(bits_per_key, 6.9) << n;
  }
}

TEST(BandedFilter, SizeFormulaAndInverse) {
  for (double bpk : {3.0, 10.0, 17.5}) {
    const BandedFilterBuilder builder(bpk);
    size_t last = builder.FilterSize(0);
    for (size_t n = 1; n < 5000; n += 1 + n / 16) {
      const size_t size = builder.FilterSize(n);
      EXPECT_GE(size, last) << n;
      last = size;
      // The smaller of the planned layers and a Bloom filter.
      EXPECT_LE(size, CacheLocalBloomBuilder(bpk).FilterSize(n) + 2) << n;
    }
    for (size_t bytes : {size_t{6}, size_t{100}, size_t{1000}, size_t{12345}, size_t{1} << 20}) {
      const size_t n = builder.MaxEntriesForSize(bytes);
      if (n > 0) {
        EXPECT_LE(builder.FilterSize(n), bytes) << bytes;
      }
      EXPECT_GT(builder.FilterSize(n + 1), bytes) << bytes;
    }
  }
}

// The planned size (what RocksDB is told a filter of n keys takes) is
// within a block or so of the size written: layer 1 is planned for the
// keys layer 0 is expected to bump, and built for those it bumped.
TEST(BandedFilter, PlannedSizeIsCloseToTheSizeWritten) {
  for (size_t n : {1000, 4500, 20000, 300000}) {
    const std::vector<std::string> keys = ShapedKeys(KeyShape::kLittleEndian64, 0, n);
    BandedFilterBuilder builder(10);
    for (const std::string& key : keys) builder.AddKey(key);
    const size_t size = builder.FinishSize();
    const double planned = static_cast<double>(builder.FilterSize(n));
    EXPECT_NEAR(static_cast<double>(size), planned, 0.005 * planned + 2 * 57) << n;
    std::string filter;
    builder.Finish(&filter);
    EXPECT_EQ(filter.size(), size);
    EXPECT_EQ(static_cast<unsigned char>(filter.back()), kBandedTag);
  }
}

// Layer 1 is sized for the keys layer 0 bumped (10% spare slots), not
// planned from n: a filter of a partition's few thousand keys spends a
// block or two less (a 64-slot block is 1.4% of a 4 KiB filter), and one
// whose layer 0 bumped nothing has no layer 1.
TEST(BandedFilter, LayerOneIsSizedForTheKeysLayerZeroBumped) {
  int one_layer = 0;
  double bits = 0;
  constexpr int kKeySets = 24;
  for (int set = 0; set < kKeySets; ++set) {
    constexpr size_t kKeys = 4500;  // About a 4 KiB partition's at 10.
    const std::vector<std::string> keys = ShapedKeys(KeyShape::kRandom16, set * kKeys, kKeys);
    BandedFilterBuilder builder(10);
    for (const std::string& key : keys) builder.AddKey(key);
    std::string filter;
    builder.Finish(&filter);
    const BandedFilterReader reader(filter);
    ASSERT_EQ(reader.body(), kBandedBodyLayers);
    ExpectAllMatch(filter, keys);
    const size_t bumped = builder.last_layer0_bumped();
    if (bumped == 0) {
      EXPECT_EQ(reader.shape().num_layers, 1u);
      // Written at the planned widths, not one column more all narrow.
      EXPECT_EQ(reader.shape().widths.columns, BandedPlan(kKeys, 10).widths.columns);
      ++one_layer;
    } else {
      ASSERT_GE(reader.shape().num_layers, 2u);
      EXPECT_EQ(reader.shape().blocks[1], BandedExtraLayerBlocks(bumped)) << bumped << " bumped";
    }
    bits += 8.0 * static_cast<double>(filter.size()) / kKeys;
  }
  EXPECT_GT(one_layer, 0) << "no key set's layer 0 bumped nothing";
  // The planned layer 1 of two blocks spent 7.30 bits a key here.
  EXPECT_LT(bits / kKeySets, 7.25);
}

// A lone layer whose plan has no narrow block (a few blocks, here 5 at 17
// bits/key) fits its bytes at one column more with every block narrow too;
// it is written at the planned widths, which describe the setting.
TEST(BandedFilter, ALoneLayerIsWrittenAtThePlannedWidths) {
  constexpr size_t kKeys = 258;
  const BandedShape plan = BandedPlan(kKeys, 17);
  ASSERT_EQ(plan.widths.narrow_blocks, 0u);
  int lone = 0;
  for (int set = 0; set < 8; ++set) {
    const std::vector<std::string> keys = ShapedKeys(KeyShape::kRandom16, set * kKeys, kKeys);
    const std::string filter = Build(keys, 17);
    const BandedFilterReader reader(filter);
    ASSERT_EQ(reader.body(), kBandedBodyLayers);
    if (reader.shape().num_layers != 1) continue;
    ++lone;
    EXPECT_EQ(reader.shape().widths.columns, plan.widths.columns) << set;
    EXPECT_EQ(reader.shape().widths.narrow_blocks, 0u) << set;
    ExpectAllMatch(filter, keys);
  }
  EXPECT_GT(lone, 0) << "no key set's layer 0 bumped nothing";
}

// When layer 1 bumps keys (rare: a crowded block of a small filter can
// bump dozens), layers sized for them are added. Forced here by a layer 1
// of one block: the layers beyond it hold every key, and the filter is
// that much larger than planned.
TEST(BandedFilter, LayersBeyondThePlanHoldTheRest) {
  for (size_t n : {30000, 100000}) {
    const std::vector<std::string> keys = ShapedKeys(KeyShape::kRandom16, 0, n);
    BandedBuildOptions options;
    options.second_layer_blocks = 1;
    BandedFilterBuilder builder(10, options);
    for (const std::string& key : keys) builder.AddKey(key);
    const size_t size = builder.FinishSize();
    EXPECT_GT(builder.last_num_layers(), kBandedPlannedLayers) << n << " keys, fallbacks " << builder.num_fallbacks();
    std::string filter;
    builder.Finish(&filter);
    EXPECT_EQ(filter.size(), size);
    const BandedFilterReader reader(filter);
    ASSERT_EQ(reader.body(), kBandedBodyLayers);
    EXPECT_EQ(reader.shape().num_layers, builder.last_num_layers());
    EXPECT_EQ(reader.shape().blocks[1], 1u);
    ExpectAllMatch(filter, keys);
    const double fp = MeasuredFp(filter, ShapedKeys(KeyShape::kRandom16, 1000000, 400000));
    EXPECT_LT(fp, BandedTargetFpRate(10) * 1.1) << n;
  }
}

TEST(BandedFilter, FallbackIsABloomFilterAndRecognisable) {
  const std::vector<std::string> keys = ShapedKeys(KeyShape::kRandom16, 0, 20000);
  BandedBuildOptions options;
  options.max_layers = 1;  // Layer 0 bumps some of 20,000 keys: they are left.
  BandedFilterBuilder builder(10, options);
  for (const std::string& key : keys) builder.AddKey(key);
  std::string filter;
  builder.Finish(&filter);
  EXPECT_EQ(builder.num_fallbacks(), 1u);
  EXPECT_EQ(filter.size(), CacheLocalBloomBuilder(10).FilterSize(keys.size()) + 2);
  const BandedFilterReader reader(filter);
  EXPECT_EQ(reader.body(), kBandedBodyFallbackBloom);
  EXPECT_EQ(DescribeFilter(filter).name.rfind("banded (fallback) ", 0), 0u)
      << DescribeFilter(filter).name;
  ExpectAllMatch(filter, keys);

  options = {};
  options.max_temp_bytes = 1000;  // Over the limit: a fallback too.
  EXPECT_EQ(BandedFilterReader(Build(keys, 10, options)).body(), kBandedBodyFallbackBloom);
}

TEST(BandedFilter, TemporaryMemoryIsMeasured) {
  const std::vector<std::string> keys = ShapedKeys(KeyShape::kRandom16, 0, 200000);
  BandedFilterBuilder builder(10);
  for (const std::string& key : keys) builder.AddKey(key);
  builder.FinishSize();
  const double bits = 8.0 * double(builder.last_temp_bytes()) / double(keys.size());
  EXPECT_GT(bits, 64) << "the hashes alone are 64 bits/key";
  EXPECT_LE(double(builder.last_temp_bytes()),
            1.25 * double(BandedBuildTempBytes(keys.size(), BandedPlan(keys.size(), 10))));
}

// optimize_filters_for_memory's sizes: every size FittingBuiltSize offers
// is written, holds every key, and measures the FP BuiltFpRate says.
TEST(BandedFilter, OtherSizesKeepEveryKeyAtTheirModel) {
  const std::vector<std::string> keys = ShapedKeys(KeyShape::kRandom16, 0, 100000);
  const std::vector<std::string> absent = ShapedKeys(KeyShape::kRandom16, 1000000, 1000000);
  BandedFilterBuilder probe(10);
  for (const std::string& key : keys) probe.AddKey(key);
  const size_t built = probe.FinishSize();
  EXPECT_EQ(probe.FittingBuiltSize(built), built);
  EXPECT_EQ(probe.FittingBuiltSize(20), 0u);
  for (double scale : {0.6, 0.85, 0.97, 1.1}) {
    BandedFilterBuilder builder(10);
    for (const std::string& key : keys) builder.AddKey(key);
    const size_t bytes = builder.FittingBuiltSize(static_cast<size_t>(built * scale));
    ASSERT_GT(bytes, 0u) << scale;
    EXPECT_LE(bytes, static_cast<size_t>(built * scale));
    const double model = builder.BuiltFpRate(bytes);
    std::string filter(bytes, '\0');
    builder.FinishInto(filter.data(), bytes);
    ExpectAllMatch(filter, keys);
    const size_t positives = static_cast<size_t>(MeasuredFp(filter, absent) * absent.size());
    EXPECT_LE(positives, testing::BinomialUpperBound(absent.size(), model * 1.03)) << scale;
    EXPECT_GE(positives, testing::BinomialLowerBound(absent.size(), model / 1.03)) << scale;
  }
}

// Every kernel (banded/kernels.h) answers as the scalar loop, key by key,
// for column counts around the SIMD limits (4 and 8 columns to a register
// half or a register; 9+ take the scalar loop), with narrow blocks, through
// the single, batched and one-shot paths, on filters of 20,000 keys and of
// 400,000 (several solver sections).
TEST(BandedFilter, EveryKernelAnswersAsTheScalarLoop) {
  const std::vector<std::string> small = ShapedKeys(KeyShape::kRandom16, 0, 20000);
  const std::vector<std::string> big = ShapedKeys(KeyShape::kRandom16, 0, 400000);
  const std::vector<std::string> asked = ShapedKeys(KeyShape::kRandom16, 1000000, 200000);
  const std::vector<std::string_view> views = Views(asked);
  const std::vector<std::pair<const std::vector<std::string>*, double>> cases = {
      {&small, 1.0},  {&small, 3.0},  {&small, 5.5},  {&small, 7.0}, {&small, 10.0},
      {&small, 12.0}, {&small, 14.0}, {&small, 20.0}, {&big, 10.0},  {&big, 16.0}};
  for (const auto& [keys, bpk] : cases) {
    const std::string filter = Build(*keys, bpk);
    const BandedFilterReader scalar(filter, SimdLevel::kScalar);
    ASSERT_EQ(scalar.body(), kBandedBodyLayers) << bpk;
    std::unique_ptr<bool[]> expected(new bool[asked.size()]);
    size_t positives = 0;
    for (size_t i = 0; i < asked.size(); ++i) positives += expected[i] = scalar.MayMatch(asked[i]);
    EXPECT_GT(positives, 0u) << bpk;
    for (SimdLevel level : SupportedSimdLevels()) {
      SCOPED_TRACE(::testing::Message() << GetBandedKernels(level).name << " r "
                                        << scalar.shape().widths.columns);
      const BandedFilterReader reader(filter, level);
      const BandedFilterReader::OnceContext once(level);
      std::unique_ptr<bool[]> batch(new bool[asked.size()]);
      reader.MayMatchBatch(views, batch.get());
      for (size_t i = 0; i < asked.size(); ++i) {
        ASSERT_EQ(reader.MayMatch(asked[i]), expected[i]) << i;
        ASSERT_EQ(batch[i], expected[i]) << i;
        ASSERT_EQ(BandedFilterReader::MayMatchOnce(filter, asked[i], once), expected[i]) << i;
      }
    }
  }
  if (SupportedSimdLevels().size() == 1) {
    GTEST_SKIP() << "this CPU has no SIMD level (AVX2, AVX-512, NEON): only the scalar loop ran. "
                 << SimdCapNote();
  }
}

TEST(BandedFilter, InconsistentTrailersFailOpen) {
  // Enough keys that layer 0 bumps some: two layers.
  const std::vector<std::string> keys = ShapedKeys(KeyShape::kRandom16, 0, 20000);
  const std::string good = Build(keys);
  ASSERT_EQ(BandedFilterReader(good).body(), kBandedBodyLayers);
  ASSERT_EQ(BandedFilterReader(good).shape().num_layers, 2u);
  const size_t end = good.size();
  const size_t t = end - BandedTrailerBytes(2);
  auto expect_open = [&](std::string bad, const char* what) {
    const ExactBytes buffer(bad);
    const BandedFilterReader reader(buffer.view());
    EXPECT_EQ(reader.state(), FilterState::kMatchEverything) << what;
    EXPECT_TRUE(reader.MayMatch("absent")) << what;
    EXPECT_TRUE(BandedFilterReader::MayMatchOnce(buffer.view(), "absent",
                                                 BandedFilterReader::OnceContext()))
        << what;
  };
  std::string bad = good;
  bad[end - 3] = 2;
  expect_open(bad, "hash kind");
  bad = good, bad[end - 4] = 0;
  expect_open(bad, "r = 0");
  bad = good, bad[end - 4] = 17;
  expect_open(bad, "r = 17");
  bad = good, bad[end - 5] = 0;
  expect_open(bad, "no layers");
  bad = good, bad[end - 5] = 5;
  expect_open(bad, "5 layers");
  bad = good, bad[end - 5] = 3;
  expect_open(bad, "3 layers (the counts then disagree with the bytes)");
  bad = good, bad[end - 2] = 9;
  expect_open(bad, "body kind");
  bad = good, bad[t] ^= 1;
  expect_open(bad, "layer 0's blocks");
  bad = good, bad[t + 4] = bad[t + 5] = bad[t + 6] = bad[t + 7] = 0;
  expect_open(bad, "a layer of no blocks");
  bad = good, bad[t + 11] = static_cast<char>(0x7f);
  expect_open(bad, "narrow blocks past layer 0");
  expect_open(good.substr(1), "truncated");
  expect_open(std::string(1, 'B'), "tag only");
  expect_open(std::string("\x01" "B", 2), "body kind only");
}

// Random bytes tagged as banded, some with a trailer that parses: no crash
// or read past the end (ExactBytes, under ASan); every read path answers
// alike; bytes not understood match everything.
TEST(BandedFilter, RandomBytesFollowTheReaderContract) {
  std::mt19937_64 rng(99);
  const std::vector<std::string> probes = testing::RandomBytesKeys(64, 20, rng);
  const std::vector<std::string_view> views = Views(probes);
  bool batch[64];
  int parsed = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string bytes = testing::RandomBytesKey(400, rng);
    if (bytes.size() >= 2) {
      bytes.back() = static_cast<char>(kBandedTag);
      bytes[bytes.size() - 2] = static_cast<char>(1 + rng() % 3);
    }
    if (bytes.size() >= BandedTrailerBytes(2) + 60 && rng() % 2) {
      // A trailer whose two layers fill the bytes when they divide evenly.
      const uint32_t r = 1 + rng() % 6;
      const size_t body = bytes.size() - BandedTrailerBytes(2);
      const uint64_t b1 = 1;
      const size_t rest = body - b1 * banded::BlockBytes(r);
      const uint64_t b0 = rest / banded::BlockBytes(r), narrow = 0;
      const size_t t = body;
      for (int b = 0; b < 4; ++b) {
        bytes[t + b] = static_cast<char>(b0 >> (8 * b));
        bytes[t + 4 + b] = static_cast<char>(b1 >> (8 * b));
        bytes[t + 8 + b] = static_cast<char>(narrow >> (8 * b));
      }
      bytes[t + 12] = 2, bytes[t + 13] = static_cast<char>(r);
      bytes[t + 14] = static_cast<char>(kBandedHashXxh3), bytes[t + 15] = 1;
      if (rng() % 3 == 0) bytes[t + 13] = static_cast<char>(rng());  // Often out of range.
    }
    const ExactBytes buffer(bytes);
    const BandedFilterReader reader(buffer.view());
    if (reader.body() == kBandedBodyLayers) ++parsed;
    if (reader.body() == 0) {
      ASSERT_EQ(reader.state(), FilterState::kMatchEverything) << i;
    }
    reader.MayMatchBatch(views, batch);
    const BandedFilterReader::OnceContext once;
    for (size_t k = 0; k < views.size(); ++k) {
      const bool single = reader.MayMatch(views[k]);
      ASSERT_EQ(batch[k], single) << "input " << i;
      ASSERT_EQ(BandedFilterReader::MayMatchOnce(buffer.view(), views[k], once), single) << i;
      if (reader.body() == 0) {
        ASSERT_TRUE(single);
      }
    }
    if (IsBandedFilter(buffer.view())) {
      ASSERT_EQ(DescribeFilter(buffer.view()).state, reader.state()) << "input " << i;
    }
  }
  EXPECT_GT(parsed, 100);
}

}  // namespace
}  // namespace sstfilter
