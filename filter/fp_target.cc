#include "filter/fp_target.h"

#include <algorithm>
#include <cassert>

#include "absl/numeric/bits.h"
#include "filter/bloom_math.h"

namespace sstfilter {

namespace {

// Size classes: n < 4 alone, then four per power of two (n's top three
// bits), so that a class's largest n is at most 1.25 times its smallest.
size_t SizeClassOf(size_t num_keys) {
  if (num_keys < 4) return num_keys;
  const int width = absl::bit_width(num_keys);
  return 4 * static_cast<size_t>(width) + ((num_keys >> (width - 3)) & 3);
}

// The largest n of n's size class, within the models' range.
size_t SizeClassTop(size_t num_keys) {
  if (num_keys < 4) return num_keys;
  const int low_bits = absl::bit_width(num_keys) - 3;
  const size_t low_mask = (size_t{1} << low_bits) - 1;
  return std::min(num_keys | low_mask, kMaxFilterEntries);
}

}  // namespace

double BitsPerKeyForFp(const EncodingInfo& info, size_t num_keys, double fp_rate) {
  return BitsPerKeyForFpModel(
      [&](double bits_per_key) { return info.expected_fp_rate(num_keys, bits_per_key); }, fp_rate);
}

double BitsPerKeyForFpModel(absl::FunctionRef<double(double)> fp_at, double fp_rate,
                            double precision) {
  assert(fp_rate > 0 && fp_rate < 1);
  double target = fp_rate;
  const double least = fp_at(kMaxBitsPerKey);
  if (least > target) target = std::min(least * 1.01, 1.0);
  // Invariant: fp_at(hi) <= target, and lo is below every setting that
  // has been seen to meet it (0 is no setting).
  double lo = 0, hi = kMaxBitsPerKey;
  while (hi - lo > precision) {
    const double mid = lo + (hi - lo) / 2;
    (fp_at(mid) <= target ? hi : lo) = mid;
  }
  return hi;
}

double BitsPerKeyForFp(EncodingId encoding, size_t num_keys, double fp_rate) {
  return BitsPerKeyForFp(EncodingInfoOf(encoding), num_keys, fp_rate);
}

FpTarget::FpTarget(double fp_rate) : fp_rate_(fp_rate), memo_(std::make_shared<Memo>()) {
  assert(fp_rate > 0 && fp_rate < 1);
  for (auto& per_encoding : *memo_) {
    for (std::atomic<double>& bits : per_encoding) bits.store(0, std::memory_order_relaxed);
  }
}

double FpTarget::BitsPerKey(EncodingId encoding, size_t num_keys) const {
  const EncodingInfo& info = EncodingInfoOf(encoding);
  std::atomic<double>& memo = (*memo_)[static_cast<size_t>(encoding)][SizeClassOf(num_keys)];
  double bits = memo.load(std::memory_order_relaxed);
  if (bits == 0) {
    bits = BitsPerKeyForFp(info, SizeClassTop(num_keys), fp_rate_);
    memo.store(bits, std::memory_order_relaxed);  // Racing threads store the same value.
  }
  // The class's setting, if it meets the target at this n with no more
  // than kFpTargetSlackBits to spare (or the filter is small: below
  // kFpTargetExactKeys keys a spare bit is a few bytes, and minimum sizes
  // make the models flat); else this n's own.
  if (info.expected_fp_rate(num_keys, bits) > fp_rate_) {
    return BitsPerKeyForFp(info, num_keys, fp_rate_);
  }
  if (num_keys < kFpTargetExactKeys ||
      info.expected_fp_rate(num_keys, bits - kFpTargetSlackBits) > fp_rate_) {
    return bits;
  }
  return BitsPerKeyForFp(info, num_keys, fp_rate_);
}

}  // namespace sstfilter
