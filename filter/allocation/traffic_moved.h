// Whether the Gets moved: a window of one level's sampled reads drawn
// over its tables in other proportions than the counts before it (the
// hot key ranges went elsewhere). The census's decayed counts
// (table/census/read_samples.h) forget slowly, so that a share is not
// taken from noise; where the traffic has moved, what they remember is
// another workload's, and they forget it at once. Pure arithmetic.
#ifndef SSTFILTER_FILTER_ALLOCATION_TRAFFIC_MOVED_H_
#define SSTFILTER_FILTER_ALLOCATION_TRAFFIC_MOVED_H_

#include <vector>

namespace sstfilter {

// One table's sampled Gets before the window and in it (decayed alike).
struct WindowCounts {
  double before = 0;
  double window = 0;
};

// Each side's sampled Gets below which no move is told.
inline constexpr double kMovedLeastSamples = 64;
// Tables whose expected count in the window is below this are pooled
// into one cell, where the chi-square law holds.
inline constexpr double kMovedLeastExpected = 5;
// The normal deviate of the test's level (about 3e-7): a level is tested
// at each window of a long-lived DB, and a move told on noise throws away
// what the counts learned.
inline constexpr double kMovedDeviate = 5;

// Whether `tables` (one level's, each lived through both spans) drew the
// window in other proportions than before it: Pearson's chi-square test
// of homogeneity over the two spans, with cells of few expected window
// samples pooled, rejected past the chi-square law's quantile at
// kMovedDeviate (Wilson and Hilferty's approximation, which errs high
// at few degrees of freedom).
// False with fewer than two cells or kMovedLeastSamples on either side.
bool TrafficMoved(const std::vector<WindowCounts>& tables);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_TRAFFIC_MOVED_H_
