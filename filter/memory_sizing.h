// Sizing a filter to the allocator's size classes: what RocksDB's
// BlockBasedTableOptions::optimize_filters_for_memory asks of a filter.
//
// A filter block is held in memory in one allocation of its bytes plus a
// small overhead (RocksDB reads a block with its 5-byte trailer), and the
// allocator hands out a whole size class: malloc_usable_size of the block
// is what it costs (RocksDB charges the block cache that). jemalloc's
// classes are 4 per doubling, so a filter wastes up to 20% of its
// allocation; glibc's are 16 bytes apart. The sizing picks, per filter, the smallest allocation
// that holds a filter within an FP budget, then lets the filter fill that
// allocation. Filters vary in size around their target, and an FP credit
// shared by the filters of one policy keeps the aggregate FP at or below
// what the normal sizes give:
//
//   - a filter whose allocation has room past its target grows into it
//     (free memory): its FP rate drops below the target, and the drop is
//     banked as credit;
//   - a later filter may shrink, down to 3/4 of its target bytes, by at
//     most the credit: it ends in a smaller size class.
//
// "Aggregate FP" is the sum over filters of each filter's expected FP rate
// (every filter asked equally often), as RocksDB keeps it. Pure: the
// allocator is a function given by the caller (the real one in
// table/rocksdb/, models in tests).
#ifndef SSTFILTER_FILTER_MEMORY_SIZING_H_
#define SSTFILTER_FILTER_MEMORY_SIZING_H_

#include <atomic>
#include <cstddef>

#include "absl/functional/function_ref.h"

namespace sstfilter {

// usable(bytes): the bytes the allocator hands out for a request of
// `bytes` (malloc_usable_size). REQUIRES: usable(b) >= b, non-decreasing,
// and usable(usable(b)) == usable(b) (a size class requested is itself).
using UsableSizeFn = absl::FunctionRef<size_t(size_t)>;

// The sizes an encoding can write for one filter (n entries fixed).
struct FilterSizeOptions {
  // The size the encoding writes without sizing (Builder::FinishSize).
  size_t target_bytes = 0;
  // The largest size <= bytes the encoding can write for these entries, 0 if
  // none (Builder::FittingBuiltSize). Non-decreasing in bytes, and
  // fitting(target_bytes) == target_bytes.
  absl::FunctionRef<size_t(size_t)> fitting;
  // The expected FP rate of the filter at a size `fitting` gave or the
  // target. Non-increasing in bytes.
  absl::FunctionRef<double(size_t)> fp_rate;
};

// Shrinking stops at 3/4 of the target bytes (7.5 bits/key for a 10
// bits/key filter, FP ~3x the target): it caps one filter's FP rate
// whatever the credit. RocksDB's built-ins stop at the same fraction.
inline constexpr size_t kMinSizeNumerator = 3;
inline constexpr size_t kMinSizeDenominator = 4;

// Growing into an allocation stops at 4/3 of the target plus overhead: past
// that the slack is more likely a misbehaving usable-size function than a
// size class, and bytes on disk grow with no memory saved in return.
inline constexpr size_t kMaxGrowthNumerator = 4;
inline constexpr size_t kMaxGrowthDenominator = 3;

struct SizeChoice {
  size_t filter_bytes = 0;      // The size to write (a size `fitting` gives).
  size_t allocation_bytes = 0;  // usable(filter_bytes + overhead): allocate this.
  double fp_rate = 0;           // fp_rate(filter_bytes).
  double target_fp_rate = 0;    // fp_rate(target_bytes).
};

// The filter size for one filter. With fp_credit = max(credit, 0):
//   - fp_rate <= target_fp_rate + fp_credit (the FP bound);
//   - filter_bytes >= fitting(target_bytes * 3/4): no smaller than the
//     largest writable size within 3/4 of the target's bytes;
//   - allocation_bytes = usable(filter_bytes + overhead) <=
//     usable(target_bytes + overhead): never more memory than the target
//     (an allocation of allocation_bytes has exactly that usable size);
//   - allocation_bytes is the smallest usable(s + overhead) over the
//     writable sizes s in that range meeting the FP bound, and filter_bytes
//     the largest writable size that allocation holds (within the growth
//     cap above).
// Evaluates fp_rate ~log2(target / 4) times and usable once.
SizeChoice ChooseFilterSize(const FilterSizeOptions& sizes, UsableSizeFn usable,
                            size_t overhead, double fp_credit);

// The FP credit shared by the filters of one policy: the sum of
// (target_fp_rate - fp_rate) over the filters sized so far, never negative.
// Thread-safe. A builder takes the whole credit, sizes its filter with it
// and returns what it did not spend, so concurrent builders can never spend
// the same credit twice (one of them sees none and does not shrink).
class FpCredit {
 public:
  // Removes and returns the whole credit.
  double Take() { return credit_.exchange(0.0); }
  // Adds back `amount` (>= 0): the unspent part of a Take, plus any gain.
  void Return(double amount);
  double Peek() const { return credit_.load(); }

 private:
  std::atomic<double> credit_{0.0};
};

// Sizes one filter with the whole credit and returns what is left to it:
// credit' = credit + target_fp_rate - fp_rate >= 0.
SizeChoice ChooseFilterSizeWithCredit(const FilterSizeOptions& sizes, UsableSizeFn usable,
                                      size_t overhead, FpCredit& credit);

// Sizes the filter an encoding's builder holds (filter/encoding_contract.h):
// FinishSize() (which builds it, where its size depends on it) is the
// target; FittingBuiltSize gives the other sizes and BuiltFpRate their FP
// model. The caller allocates allocation_bytes and calls
// FinishInto(out, filter_bytes).
template <typename B>
SizeChoice ChooseBuiltFilterSize(B& builder, UsableSizeFn usable, size_t overhead,
                                 FpCredit& credit) {
  const size_t built = builder.FinishSize();
  const auto fitting = [&builder](size_t bytes) { return builder.FittingBuiltSize(bytes); };
  const auto fp_rate = [&builder](size_t bytes) { return builder.BuiltFpRate(bytes); };
  return ChooseFilterSizeWithCredit({built, fitting, fp_rate}, usable, overhead, credit);
}

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_MEMORY_SIZING_H_
