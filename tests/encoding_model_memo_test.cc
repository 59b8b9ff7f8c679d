// The remembered models answer exactly what the models answer, first time
// and from memory, for every encoding.
#include "filter/allocation/encoding_model_memo.h"

#include <cstddef>

#include "filter/encoding_info.h"
#include "filter/encodings.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

TEST(ModelMemoTest, AnswersAreTheModelsOwn) {
  for (EncodingId encoding : AllEncodingIds()) {
    for (size_t n : {size_t{1}, size_t{100}, size_t{5000}, size_t{1} << 20}) {
      for (double bits : {1.5, 6.25, 10.0, 23.4375}) {
        const double fp = EncodingInfoOf(encoding).expected_fp_rate(n, bits);
        const size_t bytes = VisitEncoding(encoding, [&](auto e) {
          return typename decltype(e)::Builder(bits).FilterSize(n);
        });
        for (int round = 0; round < 2; ++round) {  // Computed, then remembered.
          EXPECT_EQ(MemoExpectedFpRate(encoding, n, bits), fp)
              << EncodingName(encoding) << " n=" << n << " bits=" << bits;
          EXPECT_EQ(MemoFilterSize(encoding, n, bits), bytes)
              << EncodingName(encoding) << " n=" << n << " bits=" << bits;
        }
      }
    }
  }
}

// Points that differ in one field only are different entries.
TEST(ModelMemoTest, KeysTellPointsApart) {
  const double a = MemoExpectedFpRate(EncodingId::kCacheLocal, 1000, 10);
  EXPECT_NE(MemoExpectedFpRate(EncodingId::kCacheLocal, 1000, 12), a);
  EXPECT_NE(MemoExpectedFpRate(EncodingId::kLevelDb, 1000, 10), a);
  EXPECT_NE(static_cast<double>(MemoFilterSize(EncodingId::kCacheLocal, 1000, 10)), a);
  EXPECT_LT(MemoFilterSize(EncodingId::kCacheLocal, 1000, 10),
            MemoFilterSize(EncodingId::kCacheLocal, 2000, 10));
}

}  // namespace
}  // namespace sstfilter
