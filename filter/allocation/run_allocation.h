// Accuracy per sorted run at a memory budget (Monkey: Dayan, Athanassoulis,
// Idreos, SIGMOD 2017; "Optimal Bloom Filters and Adaptive Merging for
// LSM-Trees", TODS 2018).
//
// An absent-key lookup checks one filter per sorted run it reaches (each L0
// table, each level below), so the data blocks it reads for nothing are, in
// expectation, the sum of those filters' FP rates. The same bits per key in
// every run is not the allocation that minimises that sum for the memory:
// the bottom run holds most keys, so a bit per key there costs most, and
// the small runs above buy the same FP for a fraction of the bytes. With
// bits(p) = a - ln(p) / c (a Bloom filter, and close enough for every
// encoding here), the minimum of sum p_i subject to sum n_i bits_i(p_i) = M
// has p_i = mu * n_i / c_i: each run's FP proportional to its keys (and to
// what a bit buys in its encoding), mu set by the budget. A run that only
// some lookups reach (its tables cover part of the key space) counts its
// FP at that share: p_i = mu * n_i / (c_i * reach_i).
//
// Pure arithmetic on the runs' sizes and cost models; the RocksDB policy
// (table/census/) finds the runs of a tree.
#ifndef SSTFILTER_FILTER_ALLOCATION_RUN_ALLOCATION_H_
#define SSTFILTER_FILTER_ALLOCATION_RUN_ALLOCATION_H_

#include <algorithm>
#include <functional>
#include <limits>
#include <vector>

#include "filter/encoding_id.h"

namespace sstfilter {

// The highest FP the allocation gives a run: a run so small against the
// others that it would get more gets this (a filter of ~1.4 bits/key
// rather than none: RocksDB cannot skip one run's filter).
inline constexpr double kMaxRunFpRate = 0.5;

// One sorted run, as the allocation sees it.
struct RunModel {
  double keys = 0;  // Its entries (> 0).
  // Filter bits per key the run spends for an FP rate p in (0, 1)
  // (decreasing in p): its encoding's model.
  std::function<double(double fp_rate)> bits_for_fp;
  // Bits per key it spends under the uniform setting: its share of the
  // budget is keys * uniform_bits.
  double uniform_bits = 0;
  // Share of absent-key lookups that check its filter (run_reach.h):
  // its false positives cost reach * fp reads.
  double reach = 1;
  // The part of it held by tables that are not being rewritten and whose
  // filters are known: their entries (<= keys) and filter bits, as built.
  // Their FP is whatever those bits give; only the rest of the run (the
  // tables being written) takes a new FP. 0: the whole run is free.
  double fixed_keys = 0;
  double fixed_bits = 0;
  // The level it is (or is in: each L0 table is a run of its own): runs
  // of one level together repay the debt of the deeper levels that no job
  // is rewriting (AllocateFreeRunFpRates). -1: none; it takes the open
  // allocation.
  int group = -1;
};

// Each run's FP target (same order), in (0, kMaxRunFpRate]: the least sum
// of reach * FP rate (p_i = mu * n_i / (c_i * reach_i)) whose memory, sum
// keys * bits_for_fp(fp), is the uniform setting's, sum keys * uniform_bits,
// or max_bits if that is less (a byte budget; to within 0.1%; with the rates
// capped at kMaxRunFpRate, or past 100 bits/key, the memory can come out
// lower, and a budget below what kMaxRunFpRate costs is exceeded).
std::vector<double> AllocateRunFpRates(const std::vector<RunModel>& runs,
                                       double max_bits = std::numeric_limits<double>::infinity());

// The tables being written close the budget loop (AllocateFreeRunFpRates),
// level by level. A level's debt is what its fixed parts hold over its
// share of the open allocation (keys * bits(p_i)). The tables written into
// a level take the open allocation's FP, whatever that level's own debt:
// the debt leaves with the tables that hold it when they are rewritten, and
// repaying it meanwhile would make the level's tables unlike one another
// (at the same bytes, a spread of bits within a level reads more than even
// bits: FP is convex in bits). The debt of the deeper levels that no job is
// rewriting (a bottom level sized for a tree without the L0 tables that
// came since, under a burst with compactions off) is repaid by the jobs
// above them, which is the only way it ever is. A deeper level does not
// repay a shallower one's: the upper levels' tables live briefly, and their
// debt or credit handed down would swing back at their next compaction.
// One job moves its FP at most kMaxRepayFactor from the open allocation's
// (~1.44 bits/key for a Bloom filter); the rest of a debt falls to later
// jobs.
inline constexpr double kMaxRepayFactor = 2.0;

// Below it a run's reach counts as this: a run no lookup reaches still has
// a filter, and its FP stays finite (kMaxRunFpRate caps it anyway).
inline constexpr double kMinReach = 1e-3;

// What the allocation settled on, from which each run's FP follows in
// closed form: the multiplier mu and, per run (same order), what a bit per
// key buys it (c in bits(p) = a - ln(p) / c) and the factor its level's
// repaying moved its FP by (1: none).
struct RunAllocation {
  double mu = 0;
  std::vector<double> slope, factor;
  std::vector<double> fp;  // RunFpAt of each run.
};

// The FP of a run of `keys` entries reached by `reach` of the lookups, at
// multiplier mu, slope c and repaying factor: the allocation's rule
// p = mu * keys / (c * reach), capped at kMaxRunFpRate before and after
// the factor. Pure arithmetic: a table keeps mu, c and the factor and
// sizes a filter of its own keys and reach without solving again.
inline double RunFpAt(double mu, double keys, double slope, double reach, double factor = 1) {
  const double open = std::min(kMaxRunFpRate, mu * keys / (slope * std::max(reach, kMinReach)));
  return std::min(open * factor, kMaxRunFpRate);
}

// The allocation of the runs' free parts (AllocateFreeRunFpRates).
RunAllocation AllocateFreeRuns(const std::vector<RunModel>& runs,
                               double max_bits = std::numeric_limits<double>::infinity());

// Each run's FP target for its free part (same order), in
// (0, kMaxRunFpRate]. With no fixed parts, AllocateRunFpRates.
std::vector<double> AllocateFreeRunFpRates(
    const std::vector<RunModel>& runs, double max_bits = std::numeric_limits<double>::infinity());

// The model of a run of `keys` entries in `encoding`, whose uniform setting
// is bits_per_key (0: a run without filters; above kMaxBitsPerKey, as a
// run of a few keys spends: kMaxBitsPerKey): bits spent as its builder
// spends them on a filter of filter_keys entries (its tables' mean; 0:
// min(keys, kNominalFilterKeys)), at the setting that meets each FP rate
// by the encoding's own model (filter/fp_target.h). Small filters spend
// more per key than big ones (whole cache lines, few-key fallbacks): the
// budget and the bits tables already hold compare only at the tables' own
// size.
// With curve_nodes > 0, its bits_for_fp is SampledBitsForFp's curve of
// that grain for the filter size (fp_curve.h), and its uniform_bits those
// of the curve's size class: thousands of FP rates asked of it cost little.
RunModel EncodingRunModel(EncodingId encoding, double keys, double bits_per_key,
                          double filter_keys = 0, int curve_nodes = 0);

// Bits per key `encoding` spends on a filter of `filter_keys` entries at
// the setting that meets each FP rate by its model (a search over the
// setting): EncodingRunModel's bits_for_fp.
std::function<double(double fp_rate)> ExactBitsForFp(EncodingId encoding, size_t filter_keys);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_RUN_ALLOCATION_H_
