// A column family's runs as the cache-aware plan (cache_budget.h) and the
// rebuild gains (rebuild_gain.h) weigh them: each run's census beside its
// encoding's model, and its blocks as the cache model (filter/cache_model/)
// reads them at given FP rates. Pure arithmetic.
#ifndef SSTFILTER_FILTER_PLAN_PLANNED_RUNS_H_
#define SSTFILTER_FILTER_PLAN_PLANNED_RUNS_H_

#include <vector>

#include "filter/allocation/run_allocation.h"
#include "filter/allocation/run_blocks.h"
#include "filter/allocation/tree_runs.h"
#include "filter/filter_options.h"

namespace sstfilter {

struct CacheSite;  // cache_budget.h

// One run of the tree as both models see it.
struct PlannedRun {
  int level = 0;
  RunCensus census;
  RunModel model;
};

// The runs of `runs` that hold entries, newest first (each L0 table, then
// the levels), each with its encoding's model at options.bits_per_key.
std::vector<PlannedRun> RunsOf(const FilterOptions& options, const TreeRuns& runs);

// The most filter bits the options allow over `runs`: the uniform
// setting's, or budget_mb if less.
double MostBits(const FilterOptions& options, const std::vector<PlannedRun>& runs);

// The runs' blocks with their filters at `fp_rates` (1: no filter) and the
// index and data blocks `shape` gives their entries; their filter bytes
// in `filter_bytes`.
std::vector<RunBlocks> BlocksAt(const std::vector<PlannedRun>& runs, const BlockShape& shape,
                                const CacheSite& cache, const std::vector<double>& fp_rates,
                                double* filter_bytes);

// The FP rate `run`'s encoding gives at `bits` per key.
double FpAtBits(const RunModel& run, double bits);

// The runs' FP rates at `budget` over the runs above `unfiltered_from`
// (1 for the rest: no filter).
std::vector<double> FpRatesAt(const std::vector<PlannedRun>& runs, int unfiltered_from,
                              double budget);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_PLAN_PLANNED_RUNS_H_
