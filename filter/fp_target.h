// An FP rate a filter must not exceed, turned into bits per key by each
// encoding's own FP model (EncodingInfo::expected_fp_rate), for the filter's
// size. The standard Bloom formula would not do: at the bits/key that give a
// standard Bloom filter 1%, cache_local and compact filters have ~1.14%
// (blocked probes, fingerprint rounding) and a LevelDB-format filter of 1e8
// keys ~3.3% (its 32-bit hash).
#ifndef SSTFILTER_FILTER_FP_TARGET_H_
#define SSTFILTER_FILTER_FP_TARGET_H_

#include <array>
#include <atomic>
#include <cstddef>
#include <memory>

#include "absl/functional/function_ref.h"
#include "filter/encoding_id.h"
#include "filter/encoding_info.h"
#include "filter/encodings.h"

namespace sstfilter {

// Bits/key settings are searched to this precision; the answer is always
// on the side that meets the target.
inline constexpr double kFpTargetBitsPrecision = 1.0 / 1024;
// FpTarget's remembered settings spend at most this much more than the
// fewest, for filters of at least kFpTargetExactKeys keys.
inline constexpr double kFpTargetSlackBits = 1.0 / 16;
inline constexpr size_t kFpTargetExactKeys = 1024;

// The fewest bits/key (to kFpTargetBitsPrecision) at which the encoding's
// filter of num_keys keys has model FP at most fp_rate. Where no setting up
// to kMaxBitsPerKey reaches fp_rate (a LevelDB-format filter cannot go
// below its 32-bit hash's collision rate, ~num_keys / 2^32), the fewest at
// which it comes within 1% of the least FP it can have.
// REQUIRES: 0 < fp_rate < 1.
double BitsPerKeyForFp(const EncodingInfo& info, size_t num_keys, double fp_rate);
double BitsPerKeyForFp(EncodingId encoding, size_t num_keys, double fp_rate);
// The same search on a model of one filter size: fp_at(bits_per_key), to
// `precision` bits/key.
double BitsPerKeyForFpModel(absl::FunctionRef<double(double)> fp_at, double fp_rate,
                            double precision = kFpTargetBitsPrecision);

// A filter size for settings chosen before the filter's keys are known
// (a builder's initial setting, sizes RocksDB asks for ahead).
inline constexpr size_t kNominalFilterKeys = size_t{1} << 20;

// BitsPerKeyForFp for one fp_rate, remembered per encoding and size class
// (four per power of two; the models' FP grows with n, so the class's
// largest n gives a setting its other n meet). Each answer is checked at
// the exact n and searched again there if it misses the target or spends
// kFpTargetSlackBits more than needed. Thread-safe; copies share the memo.
class FpTarget {
 public:
  // REQUIRES: 0 < fp_rate < 1.
  explicit FpTarget(double fp_rate);

  double fp_rate() const { return fp_rate_; }
  double BitsPerKey(EncodingId encoding, size_t num_keys) const;

 private:
  static constexpr size_t kSizeClasses = 4 * 65;  // SizeClassOf in fp_target.cc.
  using Memo = std::array<std::array<std::atomic<double>, kSizeClasses>, kNumEncodings>;

  double fp_rate_;
  std::shared_ptr<Memo> memo_;  // 0: not computed yet.
};

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_FP_TARGET_H_
