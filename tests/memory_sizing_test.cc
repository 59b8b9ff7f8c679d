// filter/memory_sizing: the FP bound, the size-class choice (against a
// brute force over every byte budget), the aggregate credit, and filters of
// the chosen sizes (no false negatives; LevelDB's own reader reads ours).
#include "filter/memory_sizing.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "filter/encodings.h"
#include "filter_test_util.h"
#include "gtest/gtest.h"
#include "leveldb/filter_policy.h"
#include "leveldb/slice.h"

namespace sstfilter {
namespace {

// Allocator models, written from the allocators' documented size classes
// (independent of the code under test).

// jemalloc 5: 8, then multiples of 16 up to 128, then four classes per
// doubling (spacing a quarter of the power of two below the size).
size_t JemallocUsable(size_t bytes) {
  if (bytes <= 8) return 8;
  if (bytes <= 128) return (bytes + 15) / 16 * 16;
  size_t power = 128;
  while (power * 2 < bytes) power *= 2;  // power < bytes <= 2 * power.
  const size_t spacing = power / 4;
  return (bytes + spacing - 1) / spacing * spacing;
}

// glibc: chunks of request + 8 rounded up to 16 (at least 32), of which
// all but the 8-byte header is usable.
size_t GlibcUsable(size_t bytes) {
  return std::max<size_t>(32, (bytes + 8 + 15) / 16 * 16) - 8;
}

// An allocator with no slack (AddressSanitizer's malloc_usable_size).
size_t ExactUsable(size_t bytes) { return bytes; }

using UsableFn = size_t (*)(size_t);
constexpr size_t kOverhead = 5;  // RocksDB's block trailer.

struct Case {
  EncodingId encoding;
  UsableFn usable;
  const char* allocator;
};

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  return std::string(EncodingName(info.param.encoding)) + "_" + info.param.allocator;
}

// The sizing problem of a builder holding n entries (n random distinct
// hashes): the sizes it can write and their FP rates, as every encoding's
// builder gives them once FinishSize has built the filter
// (filter/encoding_contract.h).
class Sizing {
 public:
  Sizing(EncodingId encoding, size_t n, double bits_per_key) {
    VisitEncoding(encoding, [&](auto e) {
      using B = typename decltype(e)::Builder;
      auto builder = std::make_shared<B>(bits_per_key);
      std::mt19937_64 rng(n);
      for (size_t i = 0; i < n; ++i) builder->AddHash(static_cast<typename B::Hash>(rng()));
      target_ = builder->FinishSize();
      fitting_ = [builder](size_t bytes) { return builder->FittingBuiltSize(bytes); };
      fp_ = [builder](size_t bytes) { return builder->BuiltFpRate(bytes); };
    });
  }

  size_t target() const { return target_; }
  size_t Fitting(size_t bytes) const { return fitting_(bytes); }
  double FpAt(size_t bytes) const { return fp_(bytes); }
  SizeChoice Choose(UsableFn usable, double credit) const {
    return ChooseFilterSize({target_, fitting_, fp_}, usable, kOverhead, credit);
  }

 private:
  size_t target_ = 0;
  std::function<size_t(size_t)> fitting_ = [](size_t) { return size_t{0}; };
  std::function<double(size_t)> fp_ = [](size_t) { return 1.0; };
};

class MemorySizingTest : public ::testing::TestWithParam<Case> {};

// Entry counts from 1 to ~3000 (filters of 9 bytes to 4 KB, where size
// classes matter most) and credits from none to plenty.
const size_t kCounts[] = {1, 7, 20, 51, 52, 100, 333, 409, 410, 1000, 1234, 3000};
const double kCredits[] = {0.0, 1e-4, 1e-3, 5e-3, 0.05, 1.0};

// Every bound the header states, for every count and credit.
TEST_P(MemorySizingTest, MeetsItsBounds) {
  const Case& c = GetParam();
  for (size_t n : kCounts) {
    const Sizing sizing(c.encoding, n, 10);
    const size_t target = sizing.target();
    for (double credit : kCredits) {
      SCOPED_TRACE(::testing::Message() << "n=" << n << " credit=" << credit);
      const SizeChoice choice = sizing.Choose(c.usable, credit);
      EXPECT_DOUBLE_EQ(choice.target_fp_rate, sizing.FpAt(target));
      EXPECT_DOUBLE_EQ(choice.fp_rate, sizing.FpAt(choice.filter_bytes));
      EXPECT_LE(choice.fp_rate, choice.target_fp_rate + credit);
      // A size the encoding writes, at least 3/4 of the target.
      EXPECT_EQ(sizing.Fitting(choice.filter_bytes), choice.filter_bytes);
      EXPECT_GE(choice.filter_bytes, sizing.Fitting(target * 3 / 4));
      // Allocated: exactly a size class holding the filter and the trailer,
      // never a larger one than the target's.
      EXPECT_EQ(choice.allocation_bytes, c.usable(choice.filter_bytes + kOverhead));
      EXPECT_GE(choice.allocation_bytes, choice.filter_bytes + kOverhead);
      EXPECT_LE(choice.allocation_bytes, c.usable(target + kOverhead));
      // Filled: no larger filter fits the same allocation (within the 4/3 cap).
      const size_t next = sizing.Fitting(choice.allocation_bytes - kOverhead);
      EXPECT_TRUE(next == choice.filter_bytes ||
                  next + kOverhead > (target + kOverhead) * 4 / 3)
          << "filter " << choice.filter_bytes << " leaves room for " << next;
      // No credit: no filter less accurate than the target.
      if (credit == 0) {
        EXPECT_GE(choice.filter_bytes, target);
      }
    }
  }
}

// The allocation is the smallest any writable size within the bounds needs:
// brute force over every byte budget from 3/4 of the target to the target.
TEST_P(MemorySizingTest, PicksTheSmallestAllocationWithinTheFpBound) {
  const Case& c = GetParam();
  for (size_t n : kCounts) {
    const Sizing sizing(c.encoding, n, 10);
    const size_t target = sizing.target();
    for (double credit : kCredits) {
      SCOPED_TRACE(::testing::Message() << "n=" << n << " credit=" << credit);
      const double bound = sizing.FpAt(target) + credit;
      size_t best = c.usable(target + kOverhead);
      for (size_t b = target * 3 / 4; b <= target; ++b) {
        const size_t s = sizing.Fitting(b);
        if (s == 0 || s < sizing.Fitting(target * 3 / 4)) continue;
        if (sizing.FpAt(s) <= bound) best = std::min(best, c.usable(s + kOverhead));
      }
      EXPECT_EQ(sizing.Choose(c.usable, credit).allocation_bytes, best);
    }
  }
}

// Every encoding of the list under each allocator model.
std::vector<Case> AllCases() {
  std::vector<Case> cases;
  for (EncodingId encoding : AllEncodingIds()) {
    cases.push_back({encoding, JemallocUsable, "jemalloc"});
    cases.push_back({encoding, GlibcUsable, "glibc"});
    cases.push_back({encoding, ExactUsable, "exact"});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Allocators, MemorySizingTest, ::testing::ValuesIn(AllCases()), CaseName);

// Small cache-local filters (narrow lines) keep their size and shape.
TEST(MemorySizingCacheLocalTest, NarrowFiltersKeepTheirSize) {
  for (size_t n = 1; n <= 409; n += 17) {
    const Sizing sizing(EncodingId::kCacheLocal, n, 10);
    EXPECT_EQ(sizing.Choose(JemallocUsable, 1.0).filter_bytes, sizing.target()) << n;
  }
}

// A thousand filters under jemalloc's classes, one credit: the summed FP
// never exceeds the targets' (at every step), and memory drops.
TEST(MemorySizingAggregateTest, KeepsTheAggregateFpAndSavesMemory) {
  for (EncodingId encoding : AllEncodingIds()) {
    SCOPED_TRACE(EncodingName(encoding));
    std::mt19937_64 rng(42);
    FpCredit credit;
    double fp_sum = 0, target_fp_sum = 0;
    size_t memory = 0, target_memory = 0;
    for (int i = 0; i < 1000; ++i) {
      const size_t n = 1000 + rng() % 99001;
      const double taken = credit.Take();
      const Sizing sizing(encoding, n, 10);
      const SizeChoice choice = sizing.Choose(JemallocUsable, taken);
      credit.Return(taken + choice.target_fp_rate - choice.fp_rate);
      fp_sum += choice.fp_rate;
      target_fp_sum += choice.target_fp_rate;
      ASSERT_LE(fp_sum, target_fp_sum * (1 + 1e-12)) << i;
      ASSERT_NEAR(credit.Peek(), target_fp_sum - fp_sum, 1e-9) << i;
      memory += choice.allocation_bytes;
      target_memory += JemallocUsable(sizing.target() + kOverhead);
    }
    // jemalloc wastes ~10% of filters this size: most of it comes back.
    EXPECT_LT(static_cast<double>(memory), 0.95 * static_cast<double>(target_memory));
    // The aggregate stays close to its target, not just below it.
    EXPECT_GT(fp_sum, 0.9 * target_fp_sum);
  }
}

// Concurrent builders share one credit: every Take sees each unit of credit
// once, so the credit ends as the exact sum of all filters' FP gains.
TEST(FpCreditTest, ConcurrentSizingNeverOverspends) {
  FpCredit credit;
  constexpr int kThreads = 4, kFilters = 300;
  std::vector<double> gains(kThreads, 0.0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937_64 rng(t);
      for (int i = 0; i < kFilters; ++i) {
        typename LevelDbEncoding::Builder builder(10);
        const size_t n = 100 + rng() % 5000;
        for (size_t k = 0; k < n; ++k) builder.AddHash(static_cast<uint32_t>(rng()));
        const SizeChoice c =
            ChooseBuiltFilterSize(builder, JemallocUsable, kOverhead, credit);
        EXPECT_GE(credit.Peek(), 0.0);
        gains[t] += c.target_fp_rate - c.fp_rate;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  double total = 0;
  for (double g : gains) total += g;
  EXPECT_GE(total, 0.0);
  EXPECT_NEAR(credit.Peek(), total, 1e-9);
}

// A filter of `keys` at the largest size within `budget` the builder can
// write (budget relative to its target: target * num / den), and the FP
// rate its model gives that size.
struct SizedFilter {
  std::string bytes;
  double model_fp = 1;
};
template <typename E>
SizedFilter BuildSized(const std::vector<std::string>& keys, size_t num, size_t den) {
  using B = typename E::Builder;
  B builder(10);
  for (const std::string& k : keys) builder.AddKey(k);
  SizedFilter out;
  const size_t target = builder.FinishSize();
  const size_t bytes = builder.FittingBuiltSize(target * num / den);
  out.model_fp = builder.BuiltFpRate(bytes);
  EXPECT_NE(bytes, 0u);
  if (bytes == 0) return out;
  out.bytes.assign(bytes, '\xff');  // FinishInto must write every byte.
  builder.FinishInto(out.bytes.data(), bytes);
  return out;
}

// Filters written at chosen sizes other than the target answer for every
// key, and libleveldb's own reader reads the LevelDB ones exactly as ours.
TEST(SizedFilterTest, EverySizeAnswersForEveryKey) {
  const std::vector<std::string> keys = testing::ShapedKeys(bench::KeyShape::kRandom16, 0, 3000);
  const std::vector<std::string> absent =
      testing::ShapedKeys(bench::KeyShape::kRandom16, 1 << 20, 5000);
  std::unique_ptr<const leveldb::FilterPolicy> leveldb_policy(leveldb::NewBloomFilterPolicy(10));
  const std::pair<size_t, size_t> kBudgets[] = {{3, 4}, {7, 8}, {999, 1000}, {1, 1}, {21, 20}};
  for (EncodingId encoding : AllEncodingIds()) {
    VisitEncoding(encoding, [&](auto e) {
      using E = decltype(e);
      for (const auto& [num, den] : kBudgets) {
        const SizedFilter filter = BuildSized<E>(keys, num, den);
        SCOPED_TRACE(::testing::Message() << EncodingName(encoding) << " budget " << num << "/"
                                          << den << ", bytes=" << filter.bytes.size());
        const typename E::Reader reader(filter.bytes);
        ASSERT_EQ(reader.state(), FilterState::kProbe);
        for (const std::string& k : keys) ASSERT_TRUE(reader.MayMatch(k));
        size_t fp = 0;
        for (const std::string& k : absent) fp += reader.MayMatch(k);
        // The model at this size (5 sigma); a filter of the wrong size or
        // with stray bits lands far off.
        const double p = filter.model_fp;
        const double sd = std::sqrt(absent.size() * p * (1 - p));
        EXPECT_NEAR(static_cast<double>(fp), absent.size() * p, 5 * sd + 3);
        if constexpr (std::is_same_v<E, LevelDbEncoding>) {
          for (const std::string& k : keys) {
            ASSERT_TRUE(leveldb_policy->KeyMayMatch(k, filter.bytes));
          }
          for (const std::string& k : absent) {
            ASSERT_EQ(leveldb_policy->KeyMayMatch(k, filter.bytes), reader.MayMatch(k)) << k;
          }
        }
      }
    });
  }
}

}  // namespace
}  // namespace sstfilter
