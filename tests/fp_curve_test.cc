// filter/allocation/fp_curve.h: the sampled bits-for-FP curve against the
// exact search it samples (ExactBitsForFp), for every encoding.
#include "filter/allocation/fp_curve.h"

#include <cmath>
#include <cstddef>
#include <thread>
#include <vector>

#include "filter/allocation/encoding_model_memo.h"
#include "filter/allocation/run_allocation.h"
#include "filter/encodings.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

constexpr size_t kSizes[] = {1, 40, 140, 1000, 50000, size_t{1} << 20};

// At each node, the exact answer for the class's size; between two nodes,
// linear in ln p (a quarter of the way: a quarter of the change). At each
// grain: its nodes are its own.
TEST(BitsForFpCurveTest, ExactAtNodesLinearBetweenThem) {
  for (int grain : {kPlanCurveNodes, kTableCurveNodes}) {
    for (EncodingId encoding : AllEncodingIds()) {
      for (size_t n : kSizes) {
        const auto curve = SampledBitsForFp(encoding, n, grain);
        const auto exact = ExactBitsForFp(encoding, BitsCurveKeys(n));
        for (int i = grain; i <= 50 * grain; i += 7) {
          const double p = std::exp(-static_cast<double>(i) / grain);
          const double q = std::exp(-static_cast<double>(i + 1) / grain);
          const double at_p = exact(p), at_q = exact(q);
          SCOPED_TRACE(testing::Message() << EncodingName(encoding) << " n=" << n << " node " << i
                                          << "/" << grain);
          EXPECT_EQ(curve(p), at_p);
          const double quarter = curve(std::pow(p, 0.75) * std::pow(q, 0.25));
          EXPECT_NEAR(quarter, at_p + 0.25 * (at_q - at_p), 1e-9);
        }
      }
    }
  }
}

// Bits never rise as the FP rate does; past the nodes' range the curve is
// the exact search.
TEST(BitsForFpCurveTest, FallsAsFpRisesExactOutsideTheNodes) {
  for (EncodingId encoding : AllEncodingIds()) {
    const auto curve = SampledBitsForFp(encoding, 5000, kPlanCurveNodes);
    double last = curve(1e-29);
    for (double p = 1e-29; p < 0.6; p *= 1.07) {
      const double bits = curve(p);
      EXPECT_LE(bits, last + 1e-12) << EncodingName(encoding) << " p=" << p;
      last = bits;
    }
    const auto exact = ExactBitsForFp(encoding, BitsCurveKeys(5000));
    EXPECT_EQ(curve(1e-40), exact(1e-40)) << EncodingName(encoding);
  }
}

// Node 0 is p = 1, where no filter is sized: the curve up to 1 asks the
// exact search only for FPs below it (its contract, an assert) and ends at
// the FP just below 1, falling as p grows.
TEST(BitsForFpCurveTest, UpToOneTheCurveEndsAtTheFpJustBelowIt) {
  for (int grain : {kPlanCurveNodes, kTableCurveNodes}) {
    for (EncodingId encoding : AllEncodingIds()) {
      const auto curve = SampledBitsForFp(encoding, 5000, grain);
      const auto exact = ExactBitsForFp(encoding, BitsCurveKeys(5000));
      SCOPED_TRACE(testing::Message() << EncodingName(encoding) << " grain " << grain);
      EXPECT_EQ(curve(1.0), exact(std::nextafter(1.0, 0.0)));
      double last = curve(std::exp(-1.0 / grain));
      for (double t : {0.75, 0.5, 0.25, 0.01}) {
        const double bits = curve(std::exp(-t / grain));
        EXPECT_LE(bits, last + 1e-12) << "p=e^(-" << t << "/grain)";
        last = bits;
      }
    }
  }
}

TEST(BitsForFpCurveTest, SizeClasses) {
  for (size_t n = 1; n < kBitsCurveExactKeys; ++n) EXPECT_EQ(BitsCurveKeys(n), n);
  // Within half a class of an octave, the class's size rounded to whole keys.
  const double most = std::exp2(0.5 / kBitsCurveClassesPerOctave) - 1;
  size_t classes = 0, last = 0;
  for (size_t n = kBitsCurveExactKeys; n < 4 * kBitsCurveExactKeys; ++n) {
    const auto c = static_cast<double>(BitsCurveKeys(n));
    EXPECT_LE(std::abs(c - static_cast<double>(n)), most * static_cast<double>(n) + 0.5) << n;
    if (BitsCurveKeys(n) != last) ++classes, last = BitsCurveKeys(n);
  }
  // Two octaves of classes (and the next's first).
  EXPECT_EQ(classes, 2 * static_cast<size_t>(kBitsCurveClassesPerOctave) + 1);
}

// Threads sharing a curve read the same values (its nodes are computed by
// whichever thread asks first).
TEST(BitsForFpCurveTest, SharedAcrossThreads) {
  const auto reference = ExactBitsForFp(EncodingId::kBanded, BitsCurveKeys(777));
  std::vector<std::thread> threads;
  std::vector<int> wrong(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      const auto curve = SampledBitsForFp(EncodingId::kBanded, 777, kTableCurveNodes);
      for (int i = 10; i < 120; ++i) {
        const double p = std::exp(-static_cast<double>(i) / kTableCurveNodes);
        if (curve(p) != reference(p)) ++wrong[t];
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(wrong[t], 0) << t;
}

// A sampled run model is one filter size's throughout: its uniform bits
// are its curve's size class's, spent at the FP the uniform setting gives
// there. (Uniform bits at the run's own size put small filters, which grow
// in whole cache lines, up to a bit per key off their curve, and the
// per-level allocation then spent past the budget.)
TEST(BitsForFpCurveTest, SampledModelsAreTheirSizeClasssThroughout) {
  for (EncodingId encoding : AllEncodingIds()) {
    for (size_t n : {100, 130, 700, 1000, 3000, 5000, 70000}) {
      const RunModel model = EncodingRunModel(encoding, 1e6, 10, n, kTableCurveNodes);
      const size_t size = BitsCurveKeys(n);
      const double fp = MemoExpectedFpRate(encoding, size, 10);
      EXPECT_NEAR(ExactBitsForFp(encoding, size)(fp), model.uniform_bits, 0.01)
          << EncodingName(encoding) << " n=" << n << " class " << size;
    }
  }
}

}  // namespace
}  // namespace sstfilter
