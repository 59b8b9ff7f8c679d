// Which live tables to rebuild, and in which order: a table whose filter is
// off today's plan (the bits its build chose against those the plan gives
// it now), what rewriting it would save (the cache model's device reads
// per Get, the tree as its tables hold it against the tree with the
// table's level's off-plan tables at the plan, shared among them by their
// entries; a level whose move is under way, by the move whole) and cost (the bytes a rewrite reads
// and writes), and the payback rule: a rebuild is worth it when the reads it saves over
// kPaybackHorizon of Gets at the observed rate, a block each, come to
// more bytes than it reads and writes. Pure arithmetic: the census lists
// the tables (table/census/off_plan_tables.h) and runs the rebuilds
// (table/census/rebuild_loop.h).
#ifndef SSTFILTER_FILTER_PLAN_REBUILD_GAIN_H_
#define SSTFILTER_FILTER_PLAN_REBUILD_GAIN_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <vector>

#include "filter/allocation/tree_runs.h"
#include "filter/filter_options.h"
#include "filter/plan/cache_budget.h"

namespace sstfilter {

// A live table, as built and as today's plan would build it.
struct TableAgainstPlan {
  uint64_t number = 0;  // Its file number.
  int level = 1;
  double entries = 0;
  double file_bytes = 0;
  // Per key, the filter's bits as built and as today's plan would build
  // them (the bytes spent, not the encoding's setting); 0: no filter.
  double built_bits = 0;
  double planned_bits = 0;
  // The share of the Gets its plan sized it for by its key range
  // (access_aware); 0: planned by its level, reached as its run's keys.
  double share = 0;
  // The sampled Gets that share rests on (TreeTraffic::SampledAt).
  double sampled = 0;
  // An L0 table's reach, a run of its own (its run's reach; 0 below L0:
  // its run's reach times its part of the run's keys).
  double l0_reach = 0;
};

// Bits per key by which a table's filter may differ from the plan's and
// still be on it: less is rounding (a filter's size in whole blocks, the
// setting's search precision), not a different plan. Drift of the plan
// from one reading of the tree to the next is not kept off by this test
// but by the level's margin (kRebuildMargin): a test of a whole bit hid
// moves worth making, such as a deepest level built uniform at 7.35
// bits/key whose plan gives it 6.6.
inline constexpr double kOffPlanBits = 0.25;

// What the plan's count of a table's filter bits (TablesAgainstPlan:
// each filter's metadata and rounding, the partitions RocksDB cuts, their
// index; partition_cut.h) cannot know exactly, about one entry of a
// partition index: where the partitions fall when cut with the index's,
// how long the index's separators are. Spread over a table's entries, it
// widens the bits a table may be off by.
inline constexpr double kFilterOverheadBits = 256;

// Bits per key by which a table planned by its key range's share of the
// Gets (TableAgainstPlan::share) may differ from the plan and still be on
// it, at most: about a factor 2 in that share (a Bloom filter's FP halves
// every 1.44 bits a key). A rarely read table's sampled share moves that
// much from one reading of the tree to the next; with kOffPlanBits, the
// loop rewrote such tables back and forth for no saving.
inline constexpr double kRangeOffPlanBits = 1.5;

// The band of a table planned by its range narrows as the sampled Gets
// its share rests on grow: a share from n samples is known to about
// 1/sqrt(n) of itself (Poisson), and the plan's bits move by 1/ln(2)^2 =
// 2.08 a key for a factor e in it; three such errors, 6.24/sqrt(n) bits a
// key, between kOffPlanBits (past about 620 samples) and kRangeOffPlanBits
// (under about 17). A table read often is then held to its plan as a
// level-planned one is.
inline constexpr double kRangeBandBitsAtOneSample = 6.24;
double RangeOffPlanBits(double sampled);

// Whether the table's filter is off the plan: it has one the plan drops,
// lacks one the plan gives, or differs by more than kOffPlanBits per key
// (RangeOffPlanBits where planned by its range) beyond
// kFilterOverheadBits over its entries.
bool OffPlan(const TableAgainstPlan& table);

// Whether the table's filter spends more than its plan's by more than
// kOffPlanBits per key (beyond kFilterOverheadBits over its entries), also
// where it is planned by its range: a tree over its plan's bits past the
// slack (fp_rebuilds.h) frees such tables too, or bits spread over tables
// each within their bands (RangeOffPlanBits) would stay.
bool OverPlan(const TableAgainstPlan& table);

// The least share of today's reads per Get a level's first rewrites must
// save: twice the plan's own tie (kPlanReadsTie), so that a plan that
// reads alike either way rewrites nothing.
inline constexpr double kRebuildMargin = 2 * kPlanReadsTie;

struct TableRebuild {
  TableAgainstPlan table;
  // Device reads per Get rebuilding it saves (negative: adds).
  double saving = 0;
  double cost_bytes = 0;  // Read and written.
};

// For each of `tables` that is off the plan, what rebuilding it saves and
// costs, by the model the plan for `runs` (the column family's tree,
// today) is weighed with at `cache` (PlanWorkload) and, where the DB's
// statistics sharpened that workload's spread, by the tables' sampled
// spread too: the least of the two (the fit moves with the filters the
// rewrites change; a level both do not agree on is not rewritten, nor
// rewritten back). Tables whose level holds no run of `runs` are left
// out, and those of a level whose off-plan tables together save no more
// than kRebuildMargin of today's reads under either. None while the share
// of Gets that find their key is assumed (neither stated nor told by the
// DB's Gets, HitShareFor): what the loop rebuilds for is what was learned.
// A level in `under_way` (the loop has begun rewriting it for the plan: by
// level, whether to fewer bits per key) whose off-plan tables all move
// that way is weighed by its move as a whole: the level as it was (its on-plan tables
// built as its off-plan ones) against the level at the plan, that saving
// shared by all its keys, as if it had not begun: a move begun is carried
// through while it is worth beginning, rather than left half done where
// the model, weighing the half-moved level as a blend, finds the rest's
// part too small. REQUIRES: options resolved.
std::vector<TableRebuild> RebuildGains(const FilterOptions& options, const TreeRuns& runs,
                                       const CacheSite& cache,
                                       const std::vector<TableAgainstPlan>& tables,
                                       const std::map<int, bool>& under_way = {});

// The Gets over which a rebuild must pay for itself: long enough that the
// plan's own rebuilds of a level pay back on a DB serving a few thousand
// Gets a second, short enough that the share of Gets the plan is for is
// likely to hold over it.
inline constexpr std::chrono::seconds kPaybackHorizon{600};
// The device bytes a saved read is worth: one block (the least a random
// read of RocksDB's 4 KiB blocks moves; a random read costs more device
// time than as many sequential bytes of a rewrite, so this undercounts).
inline constexpr double kSavedReadBytes = 4096;

// The most bytes a second of tables `options` let the census rewrite
// (rebuild_mb_s, else kDefaultRebuildMbPerSecond); 0 where none: not
// optimize_levels (no plan to rebuild to), or rebuild_mb_s:0.
double RebuildBytesPerSecond(const FilterOptions& options);

// The Gets a second from which a rewrite saving `saving` device reads per
// Get for `cost_bytes` pays for itself (its saving over kPaybackHorizon, a
// kSavedReadBytes block each, more than its cost); 0 if it never does (no
// saving).
double BreakEvenGetsPerSecond(double saving, double cost_bytes);

// Of `gains`, those whose saving over kPaybackHorizon at `gets_per_second`
// is worth more than their cost, most saving per byte first.
std::vector<TableRebuild> RebuildsWorthIt(std::vector<TableRebuild> gains, double gets_per_second);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_PLAN_REBUILD_GAIN_H_
