// The compact encoding (4-wise binary fuse): accuracy target and shape
// against formulas written out here from their sources, no false negatives
// (empty, duplicate, many sizes, both read paths), FP rate within 5% of the
// model, the size formula and its inverse, the forced fallback, and
// damaged or random bytes read without crashing and failing open.
#include "filter/compact/filter.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "filter/encodings.h"
#include "gtest/gtest.h"
#include "tests/filter_test_util.h"

namespace sstfilter {
namespace {

using testing::ExactBytes;
using testing::KeyShape;
using testing::ShapedKeys;
using testing::Views;

std::string Build(const std::vector<std::string>& keys, double bits_per_key = 10,
                  CompactBuildOptions options = {}) {
  CompactFilterBuilder builder(bits_per_key, options);
  for (const std::string& key : keys) builder.AddKey(key);
  std::string filter;
  builder.Finish(&filter);
  return filter;
}

void ExpectAllMatch(std::string_view filter, const std::vector<std::string>& keys) {
  const CompactFilterReader reader(filter);
  size_t misses = 0;
  for (const std::string& key : keys) misses += !reader.MayMatch(key);
  EXPECT_EQ(misses, 0u) << keys.size() << " keys";
  std::vector<std::string_view> views = Views(keys);
  std::unique_ptr<bool[]> out(new bool[views.size() + 1]);
  reader.MayMatchBatch(views, out.get());
  EXPECT_EQ(std::count(out.get(), out.get() + views.size(), false), 0) << keys.size() << " keys";
}

// MayMatchEach (keys read through an accessor, as RocksDB's MultiGet hands
// them) answers as MayMatch does, key by key, at every SIMD level, for fuse
// bodies of several widths, a small Bloom body and a damaged filter, at
// batch lengths around the chunk (8) and the SIMD group bounds (16, 32).
TEST(CompactFilter, MayMatchEachAnswersAsMayMatch) {
  std::mt19937_64 rng(77);
  const std::vector<std::string> present = testing::RandomBytesKeys(5000, 16, rng);
  std::vector<std::string> asked = testing::RandomBytesKeys(3000, 16, rng);
  asked.insert(asked.end(), present.begin(), present.begin() + 1000);
  std::shuffle(asked.begin(), asked.end(), rng);
  std::string damaged = Build(present);
  damaged[damaged.size() - 3] = 99;  // Hash kind: read as may-match.
  for (const std::string& filter :
       {Build(present), Build(present, 3), Build(present, 30),
        Build({present.begin(), present.begin() + 20}), damaged}) {
    for (SimdLevel level : SupportedSimdLevels()) {
      const CompactFilterReader reader(filter, level);
      for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{8}, size_t{9}, size_t{15},
                       size_t{16}, size_t{17}, size_t{31}, size_t{32}, size_t{33}, size_t{47},
                       size_t{48}, asked.size()}) {
        std::unique_ptr<bool[]> out(new bool[n + 1]);
        reader.MayMatchEach(
            n, [&asked](size_t i) { return std::string_view(asked[i]); }, out.get());
        for (size_t i = 0; i < n; ++i) {
          ASSERT_EQ(out[i], reader.MayMatch(asked[i]))
              << SimdLevelName(level) << " body " << int(reader.body()) << " r "
              << reader.shape().fingerprint_bits << " n " << n << " i " << i;
        }
      }
    }
  }
}

// ---- Formulas written out from their sources, not from compact_math ----

// Blocked Bloom FP (Putze et al.): Poisson(lambda) keys per 512-bit line.
double BlockedBloomFp(double lambda, int k) {
  double fp = 0;
  for (int j = 0; j <= static_cast<int>(lambda + 40 * std::sqrt(lambda) + 100); ++j) {
    const double pmf = std::exp(j * std::log(lambda) - lambda - std::lgamma(j + 1.0));
    fp += pmf * std::pow(1 - std::pow(1 - 1.0 / 512, double(j) * k), k);
  }
  return fp;
}

// Graf & Lemire, binary fuse, arity 4: cells of a filter for n keys.
uint64_t PaperCells(size_t n) {
  uint64_t segment = uint64_t{1} << static_cast<int>(std::floor(std::log(n) / std::log(2.91) - 0.5));
  segment = std::min<uint64_t>(segment, 1 << 18);
  const double factor = std::max(1.075, 0.77 + 0.305 * std::log(600000.0) / std::log(n));
  const uint64_t capacity = std::llround(n * factor);
  const uint64_t count = std::max<int64_t>(1, int64_t((capacity + segment - 1) / segment) - 3);
  return (count + 3) * segment;
}

TEST(CompactMath, TargetIsTheCacheLocalBloomModel) {
  // k = 6 at 10 bits/key: 0.9576%, FastLocalBloom's model gives 0.955%.
  const double t = BlockedBloomFp(51.2, 6);
  EXPECT_NEAR(CompactTargetFpRate(10), t, t * 1e-9);
  EXPECT_NEAR(t, 0.009576, 0.000001);
  const CompactFingerprint f = CompactFingerprintFor(10);
  EXPECT_EQ(f.bits, 7);
  EXPECT_NEAR(f.narrow_fraction, t * 128 - 1, 1e-12);
  // Always 2^-r <= t < 2^-(r-1), so the mix meets t exactly.
  for (double bpk : {1.0, 2.0, 5.5, 8.0, 10.0, 13.7, 16.0, 20.0, 30.0}) {
    const CompactFingerprint g = CompactFingerprintFor(bpk);
    const double target = CompactTargetFpRate(bpk);
    EXPECT_LE(std::ldexp(1.0, -g.bits), target * (1 + 1e-12)) << bpk;
    EXPECT_GT(std::ldexp(1.0, -(g.bits - 1)), target) << bpk;
  }
}

TEST(CompactMath, ShapeFollowsThePaper) {
  for (size_t n : {100u, 1000u, 12345u, 100000u, 600000u, 1000000u, 10000000u}) {
    const FuseShape s = CompactFuseShape(n, 10);
    EXPECT_EQ(s.num_cells(), PaperCells(n)) << n;
    const double q = CompactTargetFpRate(10) * 128 - 1;
    // Rounded to a cell, then up to 7 fewer narrow cells fill the last byte.
    EXPECT_LE(s.narrow_cells, q * s.window_starts() + 0.5) << n;
    EXPECT_GT(s.narrow_cells, q * s.window_starts() - 7.5) << n;
    EXPECT_EQ(s.array_bits(), s.num_cells() * 7 - s.narrow_cells);
    EXPECT_EQ(s.array_bits() % 8, 0u) << n;
    // So the rate is at most half a cell's share above the target and 7.5
    // below.
    const double cell_share = 1.0 / s.window_starts() / 128;
    EXPECT_LE(s.FpRate(), CompactTargetFpRate(10) + 0.5 * cell_share + 1e-15) << n;
    EXPECT_GE(s.FpRate(), CompactTargetFpRate(10) - 7.5 * cell_share - 1e-15) << n;
  }
}

// FitFingerprints against a brute force over every width r: r-bit cells
// with 0..W narrow spend r C - W to r C bits, so the most within a budget B
// is the largest min(r C, B) over the r with r C - W <= B.
TEST(CompactMath, FitFingerprintsSpendsTheMostBitsWithinTheBudget) {
  std::mt19937_64 rng(3);
  for (size_t n : {64u, 100u, 5000u, 123457u}) {
    const FuseShape cells = CompactFuseShape(n, 10);
    const uint64_t c = cells.num_cells(), w = cells.window_starts();
    std::vector<uint64_t> budgets = {0, 1, c - w - 1, c - w, c};
    for (uint64_t r = 1; r <= 34; ++r) {
      for (int64_t d : {-1, 0, 1}) {
        budgets.push_back(r * c + d);
        budgets.push_back(r * c - w + d);
      }
    }
    for (int i = 0; i < 2000; ++i) budgets.push_back(rng() % (34 * c));
    std::sort(budgets.begin(), budgets.end());
    double previous_fp = 1;
    for (uint64_t budget : budgets) {
      SCOPED_TRACE(::testing::Message() << "n=" << n << " budget=" << budget);
      uint64_t best = 0;
      for (uint64_t r = 1; r <= kCompactMaxFingerprintBits; ++r) {
        if (r * c - w <= budget) best = std::max(best, std::min(r * c, budget));
      }
      const std::optional<FuseShape> fit = FitFingerprints(cells, budget);
      ASSERT_EQ(fit.has_value(), best != 0);
      if (!fit) continue;
      EXPECT_EQ(fit->array_bits(), best);
      EXPECT_LE(fit->narrow_cells, w);
      EXPECT_GE(fit->fingerprint_bits, 1);
      EXPECT_LE(fit->fingerprint_bits, kCompactMaxFingerprintBits);
      EXPECT_EQ(fit->num_cells(), c);  // The same cells: only widths change.
      EXPECT_EQ(fit->log_segment_length, cells.log_segment_length);
      // A larger budget never raises the FP rate.
      EXPECT_LE(fit->FpRate(), previous_fp);
      previous_fp = fit->FpRate();
    }
    // The shape is its own best fit: its narrow cells fill its last byte.
    const std::optional<FuseShape> own = FitFingerprints(cells, cells.array_bytes() * 8);
    ASSERT_TRUE(own.has_value());
    EXPECT_EQ(own->array_bits(), cells.array_bits());
  }
}

// ---- Correctness ----

TEST(CompactFilter, EmptyMatchesNothing) {
  const std::string filter = Build({});
  const CompactFilterReader reader(filter);
  EXPECT_EQ(reader.state(), FilterState::kMatchNothing);
  EXPECT_FALSE(reader.MayMatch("a"));
  EXPECT_FALSE(reader.MayMatch(""));
}

TEST(CompactFilter, NoFalseNegatives) {
  std::mt19937_64 rng(12);
  for (size_t n : {1u, 2u, 3u, 10u, 63u, 64u, 65u, 100u, 300u, 1000u, 4097u, 20000u, 100000u,
                   1000000u}) {
    std::vector<std::string> keys = testing::RandomBytesKeys(n, 24, rng);
    keys.push_back("");  // The empty key.
    CompactFilterBuilder builder(10);
    for (const std::string& key : keys) builder.AddKey(key);
    std::string filter;
    builder.Finish(&filter);
    EXPECT_EQ(builder.num_fallbacks(), 0u) << n;
    ExpectAllMatch(filter, keys);
    for (KeyShape shape : {KeyShape::kLittleEndian64, KeyShape::kUserDecimal}) {
      if (n > 100000) continue;
      const std::vector<std::string> shaped = ShapedKeys(shape, 7, n);
      ExpectAllMatch(Build(shaped), shaped);
    }
  }
}

TEST(CompactFilter, NoFalseNegativesAtOtherAccuracies) {
  std::mt19937_64 rng(5);
  const std::vector<std::string> keys = testing::RandomBytesKeys(30000, 16, rng);
  for (double bpk : {0.5, 1.0, 3.0, 6.0, 7.5, 12.0, 16.0, 24.0, 40.0, 64.0, 100.0}) {
    const std::string filter = Build(keys, bpk);
    ExpectAllMatch(filter, keys);
    EXPECT_EQ(CompactFilterReader(filter).body(), kCompactBodyFuse) << bpk;
  }
}

TEST(CompactFilter, DuplicatesAnywhereAreRemoved) {
  const std::vector<std::string> keys = ShapedKeys(KeyShape::kRandom16, 0, 50000);
  CompactFilterBuilder builder(10);
  for (int pass = 0; pass < 3; ++pass) {
    for (const std::string& key : keys) builder.AddKey(key);  // Adjacent ones too:
    builder.AddKey(keys.back());
  }
  EXPECT_EQ(builder.NumEntries(), 3 * keys.size());
  std::string filter;
  builder.Finish(&filter);
  EXPECT_EQ(builder.num_fallbacks(), 0u);
  EXPECT_EQ(filter.size(), builder.FilterSize(keys.size()));  // Sized for distinct keys.
  ExpectAllMatch(filter, keys);
}

TEST(CompactFilter, BuilderIsReusable) {
  CompactFilterBuilder builder(10);
  for (size_t round = 0; round < 3; ++round) {
    const std::vector<std::string> keys = ShapedKeys(KeyShape::kRandom16, round * 100000, 20000);
    for (const std::string& key : keys) builder.AddKey(key);
    std::string filter;
    builder.Finish(&filter);
    EXPECT_EQ(filter.size(), builder.FilterSize(keys.size()));
    ExpectAllMatch(filter, keys);
  }
}

// ---- FP rate ----

// Measured FP within 5% of the model: 4M absent keys against 1M keys give
// ~38k false positives, a relative standard error of 0.5%, so 5% is 10
// standard errors (and r one bit off is a factor of 2).
TEST(CompactFilter, FpRateWithinFivePercentOfModel) {
  constexpr size_t kKeys = 1000000, kQueries = 4000000;
  for (KeyShape shape : {KeyShape::kRandom16, KeyShape::kLittleEndian64, KeyShape::kUserDecimal}) {
    const std::string filter = Build(ShapedKeys(shape, 0, kKeys));
    const CompactFilterReader reader(filter);
    ASSERT_EQ(reader.body(), kCompactBodyFuse);
    size_t positives = 0;
    const std::vector<std::string> absent = ShapedKeys(shape, kKeys, kQueries);
    for (const std::string& key : absent) positives += reader.MayMatch(key);
    const double fp = double(positives) / kQueries;
    const double model = kCompactEncodingInfo.expected_fp_rate(kKeys, 10);
    EXPECT_NEAR(fp / model, 1.0, 0.05) << bench::KeyShapeName(shape) << " fp " << fp;
  }
}

// ---- Size ----

TEST(CompactFilter, SizeFormulaAndInverse) {
  const CompactFilterBuilder builder(10);
  size_t last = 0;
  for (size_t n = 0; n < 200000; n += 1 + n / 64) {
    const size_t size = builder.FilterSize(n);
    EXPECT_GE(size, last) << n;  // Grows with n (the inverse relies on it).
    last = size;
    // Never above the cache-local Bloom filter's size plus 2.
    EXPECT_LE(size, CacheLocalBloomBuilder(10).FilterSize(n) + 2) << n;
    if (builder.UsesFuse(n)) {
      EXPECT_EQ(size, (PaperCells(n) * 7 - CompactFuseShape(n, 10).narrow_cells + 7) / 8 + 18);
    }
  }
  for (size_t bytes : {0u, 5u, 6u, 100u, 1000u, 4096u, 100000u, 1u << 20}) {
    const size_t n = builder.MaxEntriesForSize(bytes);
    if (n > 0) {
      EXPECT_LE(builder.FilterSize(n), bytes) << bytes;
    }
    EXPECT_GT(builder.FilterSize(n + 1), bytes) << bytes;
  }
  // The fuse filter takes over from Bloom at a few hundred keys, and spends
  // at most 7.5 bits/key from 1e5 keys at 10-bit accuracy.
  EXPECT_TRUE(builder.UsesFuse(1000));
  EXPECT_LE(builder.FilterSize(1000000) * 8.0 / 1e6, 7.5);
}

// ---- Fallback ----

TEST(CompactFilter, FallbackIsABloomFilterAndRecognisable) {
  const std::vector<std::string> keys = ShapedKeys(KeyShape::kRandom16, 0, 10000);
  CompactBuildOptions no_seeds;
  no_seeds.max_seeds = 0;  // Every construction "fails".
  CompactFilterBuilder builder(10, no_seeds);
  for (const std::string& key : keys) builder.AddKey(key);
  std::string filter;
  builder.Finish(&filter);
  EXPECT_EQ(builder.num_fallbacks(), 1u);
  EXPECT_EQ(filter.size(), CacheLocalBloomBuilder(10).FilterSize(keys.size()) + 2);
  const CompactFilterReader reader(filter);
  EXPECT_EQ(reader.body(), kCompactBodyFallbackBloom);
  EXPECT_EQ(reader.state(), FilterState::kProbe);
  ExpectAllMatch(filter, keys);
  EXPECT_NE(kCompactEncodingInfo.describe(filter).name.find("fallback"), std::string::npos);
  // As accurate as the cache-local filter at the same bits/key.
  size_t positives = 0;
  for (const std::string& key : ShapedKeys(KeyShape::kRandom16, 10000, 200000)) {
    positives += reader.MayMatch(key);
  }
  EXPECT_LT(positives / 200000.0, 0.015);
}

// A few repeats among many distinct keys: only the keys the failed peel
// left are examined, and each repeated hash is kept once.
TEST(CompactFilter, FewRepeatsAmongManyAreRemoved) {
  const std::vector<std::string> keys = ShapedKeys(KeyShape::kRandom16, 0, 50000);
  CompactFilterBuilder builder(10);
  for (const std::string& key : keys) builder.AddKey(key);
  for (size_t i = 0; i < 10; ++i) builder.AddKey(keys[i * 4999]);  // Not adjacent.
  EXPECT_EQ(builder.NumEntries(), keys.size() + 10);
  std::string filter;
  builder.Finish(&filter);
  EXPECT_EQ(builder.num_fallbacks(), 0u);
  EXPECT_EQ(filter.size(), builder.FilterSize(keys.size()));
  EXPECT_EQ(CompactFilterReader(filter).body(), kCompactBodyFuse);
  ExpectAllMatch(filter, keys);
  // Only the unpeeled keys were copied and sorted: the peak is the build's
  // own (hashes and cells) plus a little, not plus a copy of every hash
  // (50,010 x 8 bytes).
  const size_t n = keys.size() + 10;
  const size_t build_bytes = CompactBuildTempBytes(n, CompactFuseShape(n, 10));
  EXPECT_LT(builder.last_temp_bytes(), build_bytes + 64 * 1024);
}

// A fresh builder peels at the first seed almost always (about 1% of
// attempts fail at these sizes): seeds are retries, not the rule.
TEST(CompactFilter, FirstSeedUsuallyPeels) {
  int retried = 0;
  for (int b = 0; b < 20; ++b) {
    CompactFilterBuilder builder(10);
    for (const std::string& key : ShapedKeys(KeyShape::kRandom16, b * 10000, 10000)) {
      builder.AddKey(key);
    }
    builder.FinishSize();
    retried += builder.last_seeds_tried() > 0;
  }
  EXPECT_LE(retried, 2);
}

// Temporary memory is measured (last_temp_bytes), predicted by
// CompactBuildTempBytes from its parts written out here, and bounded: one
// byte below the need, the filter is a counted Bloom fallback.
TEST(CompactFilter, TemporaryMemoryIsMeasuredAndBounded) {
  const std::vector<std::string> keys = ShapedKeys(KeyShape::kRandom16, 0, 20000);
  const FuseShape shape = CompactFuseShape(keys.size(), 10);
  // Hashes in 8 KiB blocks; per cell a 1-byte count, 8-byte XOR, 4-byte queue slot.
  const size_t need = (keys.size() + 1023) / 1024 * 8192 + shape.num_cells() * 13;
  EXPECT_EQ(CompactBuildTempBytes(keys.size(), shape), need);

  CompactBuildOptions options;
  options.max_temp_bytes = need;
  CompactFilterBuilder fits(10, options);
  for (const std::string& key : keys) fits.AddKey(key);
  std::string filter;
  fits.Finish(&filter);
  EXPECT_EQ(fits.num_fallbacks(), 0u);
  EXPECT_EQ(CompactFilterReader(filter).body(), kCompactBodyFuse);
  // Distinct keys, so no duplicate search adds to the peak whichever seed
  // peels (a retry reuses the cells).
  EXPECT_EQ(fits.last_temp_bytes(), need) << "seeds tried " << fits.last_seeds_tried();

  options.max_temp_bytes = need - 1;
  CompactFilterBuilder over(10, options);
  for (const std::string& key : keys) over.AddKey(key);
  over.Finish(&filter);
  EXPECT_EQ(over.num_fallbacks(), 1u);
  EXPECT_EQ(CompactFilterReader(filter).body(), kCompactBodyFallbackBloom);
  ExpectAllMatch(filter, keys);
}

// ---- Damage and random bytes ----

TEST(CompactFilter, InconsistentTrailersFailOpen) {
  const std::vector<std::string> keys = ShapedKeys(KeyShape::kRandom16, 0, 5000);
  const std::string good = Build(keys);
  ASSERT_EQ(CompactFilterReader(good).body(), kCompactBodyFuse);
  const size_t t = good.size() - kCompactFuseTrailerBytes;
  auto expect_open = [&](std::string bad, const char* what) {
    const ExactBytes buffer(bad);
    const CompactFilterReader reader(buffer.view());
    EXPECT_EQ(reader.state(), FilterState::kMatchEverything) << what;
    EXPECT_TRUE(reader.MayMatch("absent")) << what;
  };
  std::string bad = good;
  bad[t + 14] = 3;
  expect_open(bad, "arity");
  bad = good, bad[t + 15] = 1;
  expect_open(bad, "hash kind 1 (the retired cell mapping)");
  bad = good, bad[t + 15] = 3;
  expect_open(bad, "hash kind 3");
  bad = good, bad[t + 13] = 0;
  expect_open(bad, "r = 0");
  bad = good, bad[t + 13] = 33;
  expect_open(bad, "r = 33");
  bad = good, bad[t + 12] = 19;
  expect_open(bad, "segment length");
  bad = good, bad[t + 16] = 9;
  expect_open(bad, "body kind");
  bad = good, bad[t] ^= 1;
  expect_open(bad, "segment count");
  bad = good, bad[t + 7] = static_cast<char>(0x7f);
  expect_open(bad, "narrow cells");
  expect_open(good.substr(1), "truncated");
  expect_open(std::string(1, 'F'), "tag only");
}

// Random bytes (tagged as compact, half of them with a plausible fuse
// trailer): no crash or read past the end (ExactBytes, under ASan), and the
// reader contract (compact/filter.h) on what parses and what does not.
// Whatever the bytes: the batched answers are MayMatch's, at every SIMD
// level, and every level answers alike; bytes the reader does not
// understand (body 0) match everything; a filter that is not probed gives
// its one fixed answer; DescribeFilter reports the reader's state.
TEST(CompactFilter, RandomBytesFollowTheReaderContract) {
  std::mt19937_64 rng(99);
  const std::vector<std::string> probes = testing::RandomBytesKeys(64, 20, rng);
  const std::vector<std::string_view> views = Views(probes);
  bool single[64], batch[64];
  int parsed_fuse = 0, not_understood = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string bytes = testing::RandomBytesKey(300, rng);
    if (bytes.size() >= 2) {
      bytes.back() = static_cast<char>(kCompactTag);
      bytes[bytes.size() - 2] = static_cast<char>(1 + rng() % 3);
    }
    if (bytes.size() >= kCompactFuseTrailerBytes && rng() % 2) {
      // A plausible trailer, so that some of these parse.
      const size_t t = bytes.size() - kCompactFuseTrailerBytes;
      bytes[t + 12] = static_cast<char>(rng() % 4), bytes[t + 13] = static_cast<char>(1 + rng() % 8);
      bytes[t + 14] = 4, bytes[t + 15] = static_cast<char>(kCompactHashXxh3), bytes[t + 16] = 1;
      for (int b = 1; b < 8; ++b) bytes[t + b] = 0;
      bytes[t] = static_cast<char>(1 + rng() % 8);
      // Sometimes a segment count of 2^32 - 3 or more, whose cell count
      // (S + 3) 2^lg must not wrap to a few cells.
      if (rng() % 4 == 0) {
        bytes[t] = static_cast<char>(0xfd + rng() % 3);
        bytes[t + 1] = bytes[t + 2] = bytes[t + 3] = static_cast<char>(0xff);
      }
    }
    const ExactBytes buffer(bytes);
    const CompactFilterReader reader(buffer.view());
    for (size_t k = 0; k < views.size(); ++k) single[k] = reader.MayMatch(views[k]);
    if (reader.body() == kCompactBodyFuse) ++parsed_fuse;
    if (reader.body() == 0) {
      ++not_understood;
      ASSERT_EQ(reader.state(), FilterState::kMatchEverything) << "input " << i;
    }
    if (reader.state() != FilterState::kProbe) {
      const bool fixed = reader.state() == FilterState::kMatchEverything;
      for (size_t k = 0; k < views.size(); ++k) ASSERT_EQ(single[k], fixed) << "input " << i;
    }
    for (SimdLevel level : SupportedSimdLevels()) {
      const CompactFilterReader at_level(buffer.view(), level);
      at_level.MayMatchBatch(views, batch);
      for (size_t k = 0; k < views.size(); ++k) {
        ASSERT_EQ(at_level.MayMatch(views[k]), single[k])
            << "input " << i << " key " << k << " " << SimdLevelName(level);
        ASSERT_EQ(batch[k], single[k])
            << "input " << i << " key " << k << " batched " << SimdLevelName(level);
      }
    }
    if (IsCompactFilter(buffer.view())) {
      ASSERT_EQ(DescribeFilter(buffer.view()).state, reader.state()) << "input " << i;
    }
  }
  // Both sides of the contract were exercised.
  EXPECT_GT(parsed_fuse, 10);
  EXPECT_GT(not_understood, 100);
}

}  // namespace
}  // namespace sstfilter
