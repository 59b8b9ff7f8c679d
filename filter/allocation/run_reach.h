// How many absent-key lookups reach a sorted run's filter: a lookup checks
// a run's filter only when the key falls in one of its tables' key ranges.
// A run that covers a fifth of the key space is checked by a fifth of the
// lookups, so the per-level allocation (run_allocation.h) can spend fewer
// bits on it, and the advisor counts a fifth of its false positives.
//
// Lookups are taken to fall where the keys are: spread like the keys of a
// reference, every table of the tree (RunReaches). Not the largest
// run alone: a tree's levels can hold different parts of the key space (a
// fill never overwritten, pushed down a part at a time, leaves the bottom
// with some parts and the level above with the rest), and lookups fall in
// every part. Pure arithmetic on byte strings (user keys in bytewise
// order).
#ifndef SSTFILTER_FILTER_ALLOCATION_RUN_REACH_H_
#define SSTFILTER_FILTER_ALLOCATION_RUN_REACH_H_

#include <cstdint>
#include <string>
#include <vector>

namespace sstfilter {

// One table's user-key range and its entries.
struct KeyRange {
  std::string smallest, largest;
  uint64_t keys = 0;
};

// The share of the reference's keys that fall in `run`'s ranges, each
// reference table's keys taken as spread evenly between its bounds (a key's
// place read from its bytes past the bounds' common prefix; a table of one
// key counts whole where a range holds it): 1 for the reference itself, 0
// for an empty run; 1 when the reference holds no keys.
double RunReach(const std::vector<KeyRange>& run, const std::vector<KeyRange>& reference);

// The share of `table`'s keys that fall in [lo, hi], its keys taken as
// spread evenly between its bounds (as RunReach reads them): 1 for a table
// of one key that [lo, hi] holds, 0 when the ranges are disjoint.
double RangeShare(const KeyRange& table, const std::string& lo, const std::string& hi);

// Each run's RunReach (same order) against every table of all the runs.
std::vector<double> RunReaches(const std::vector<std::vector<KeyRange>>& runs);

// The tree's reach, for the census and the advisor alike: RunReaches, or 1
// for every run when the keys are not in bytewise order (`bytewise` false,
// or some range not ordered bytewise).
std::vector<double> TreeReaches(const std::vector<std::vector<KeyRange>>& runs, bool bytewise);

// Whether every range has smallest <= largest bytewise: false for keys
// ordered by another comparator (reverse order, say), where reach cannot be
// read from the bytes and callers take it as 1.
bool RangesOrderedBytewise(const std::vector<KeyRange>& ranges);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_RUN_REACH_H_
