// What per-level accuracy (optimize_levels) would give a tree whose filters
// are known: the advisor of sstfilter_sst --db. Pure arithmetic on the
// tree's sorted runs (run_allocation.h does the allocation, as the
// policy does when it builds each table).
//
// The projection allocates as the policy does, each run weighed by its
// reach (run_allocation.h).
//
// An absent-key Get checks the filter of each sorted run whose key range
// holds the key (each L0 table, then one table per level) and reads a data
// block for each false positive: its expected data-block reads are
// sum over runs of reach * FP, where reach is the share of absent keys that
// fall in the run's key ranges.
#ifndef SSTFILTER_FILTER_ALLOCATION_TREE_PROJECTION_H_
#define SSTFILTER_FILTER_ALLOCATION_TREE_PROJECTION_H_

#include <optional>
#include <vector>

#include "filter/allocation/filters_by_run.h"
#include "filter/encoding_id.h"

namespace sstfilter {

// One sorted run as its filters are today.
struct RunToday {
  double keys = 0;         // Filter entries (> 0).
  double filter_bits = 0;  // All its filters' bits.
  double fp_rate = 0;      // Modelled, per absent key that reaches it.
  double reach = 1;        // Share of absent keys that check its filter.
  // The encoding the per-level policy would write it in.
  EncodingId encoding = EncodingId::kCacheLocal;

  double bits_per_key() const { return filter_bits / keys; }
};

struct TreeProjection {
  double reads_today = 0;  // Data-block reads per absent Get.
  // optimize_levels with today's filter bytes as its budget.
  double reads_same_bytes = 0;
  // The filter bytes optimize_levels needs for reads_today, as a ratio to
  // today's (nullopt: not within 0.05x..4x).
  std::optional<double> bytes_for_same_reads;
};

// The runs of a tree (filters_by_run.h) as the projection takes them, in order;
// runs without keys are left out.
std::vector<RunToday> RunsToday(const std::vector<TreeRun>& runs);

// Data-block reads per absent Get of runs with these FP rates.
double ReadsPerAbsentGet(const std::vector<RunToday>& runs, const std::vector<double>& fp_rates);

// REQUIRES: runs not empty.
TreeProjection ProjectOptimizeLevels(const std::vector<RunToday>& runs);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_TREE_PROJECTION_H_
