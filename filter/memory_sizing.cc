#include "filter/memory_sizing.h"

#include <algorithm>
#include <cassert>

namespace sstfilter {

namespace {

// The smallest writable size within bound whose byte budget lies in
// [min_budget, target] (target itself if no other is), by binary search on
// the budget: fitting(b) and so its FP rate are monotone in b.
size_t SmallestWithinBound(const FilterSizeOptions& sizes, size_t min_budget, double bound) {
  size_t lo = min_budget, hi = sizes.target_bytes;  // Answer in [lo, hi]; hi qualifies.
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    const size_t fit = sizes.fitting(mid);
    if (fit != 0 && sizes.fp_rate(fit) <= bound) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return sizes.fitting(hi);
}

}  // namespace

SizeChoice ChooseFilterSize(const FilterSizeOptions& sizes, UsableSizeFn usable,
                            size_t overhead, double fp_credit) {
  const size_t target = sizes.target_bytes;
  assert(sizes.fitting(target) == target);
  SizeChoice choice;
  choice.target_fp_rate = sizes.fp_rate(target);
  const double bound = choice.target_fp_rate + std::max(fp_credit, 0.0);

  const size_t smallest =
      SmallestWithinBound(sizes, target * kMinSizeNumerator / kMinSizeDenominator, bound);

  // The allocation that smallest needs; every writable size it holds is at
  // least as accurate, so fill it (up to the growth cap).
  const size_t allocation = usable(smallest + overhead);
  const size_t cap = (target + overhead) * kMaxGrowthNumerator / kMaxGrowthDenominator;
  const size_t room = std::min(allocation, cap);
  const size_t filled = room > overhead ? sizes.fitting(room - overhead) : 0;
  choice.filter_bytes = std::max(filled, smallest);
  // A usable size below the request breaks usable's contract; the filter
  // still gets the bytes it needs.
  choice.allocation_bytes = std::max(allocation, choice.filter_bytes + overhead);
  choice.fp_rate = sizes.fp_rate(choice.filter_bytes);
  return choice;
}

void FpCredit::Return(double amount) {
  double old = credit_.load();
  while (!credit_.compare_exchange_weak(old, old + amount)) {
  }
}

SizeChoice ChooseFilterSizeWithCredit(const FilterSizeOptions& sizes, UsableSizeFn usable,
                                      size_t overhead, FpCredit& credit) {
  const double taken = credit.Take();
  const SizeChoice choice = ChooseFilterSize(sizes, usable, overhead, taken);
  // >= 0 by the FP bound; the max only guards rounding in the subtraction.
  credit.Return(std::max(0.0, taken + choice.target_fp_rate - choice.fp_rate));
  return choice;
}

}  // namespace sstfilter
