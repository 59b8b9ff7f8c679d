// The cache-aware allocation (cache_aware): the filter budget at which a
// tree's Gets read fewest blocks from the device when its filters share a
// block cache with its index and data blocks.
//
// Each budget spends its bits as the per-level allocation does
// (run_allocation.h: each run's FP proportional to its keys); a smaller one
// raises the runs' FP but leaves more of the cache to the filters that
// remain, so fewer of their partitions miss. The deepest level (or two) may
// also go without filters, as optimize_filters_for_hits leaves RocksDB's
// bottom level: its index partitions then have the cache, and Gets that
// find their key there read no filter. The plan chosen is the one among a
// geometric series of budgets below the uniform setting's (and budget_mb),
// each with no level unfiltered, the deepest or the deepest two, whose Gets
// read least by the cache model (cache_reads.h), over the tree as the
// census counts it, at the share of Gets that find their key, with the
// Gets spread over the key space as the tables' sampled reads say
// (PopularityOf; uniform until they are known). Of the three unfiltered
// choices whose fewest reads are alike, the one with the fewest filter
// bytes (ChooseAmongPlans); then, where most Gets find no key, of its
// budgets that read alike, the largest (MostFiltersAmongTies). Until the
// census knows the tables' index and data blocks (TreeRuns::blocks),
// every level keeps its filters.
#ifndef SSTFILTER_FILTER_PLAN_CACHE_BUDGET_H_
#define SSTFILTER_FILTER_PLAN_CACHE_BUDGET_H_

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "filter/allocation/tree_runs.h"
#include "filter/cache_model/cache_reads.h"
#include "filter/cache_model/spread_fit.h"
#include "filter/filter_options.h"

namespace sstfilter {

// The share of Gets that find their key where neither the options
// (FilterOptions::hit_share) nor the DB's Gets (TreeRuns::hit_share)
// say: half, the point between a workload of absent keys (where filters
// save most) and one of present keys.
inline constexpr double kAssumedHitShare = 0.5;

// Where a plan's share of Gets that find their key came from: stated, the
// DB's Gets (its statistics, else its filters' answers), those of the DB's
// last instance (carried across a reopen, before its own Gets say), or
// assumed.
enum class HitShareFrom { kStated, kObserved, kCarried, kAssumed };

// The share stated (FilterOptions::hit_share, sstfilter_sst's --hit_share),
// else the one the DB's Gets gave (TreeRuns::hit_share; `carried`:
// its last instance's), else kAssumedHitShare; `from` says which.
double HitShareFor(std::optional<double> stated, std::optional<double> observed, bool carried,
                   HitShareFrom* from);

// The block cache a column family's filters live in.
struct CacheSite {
  double capacity_bytes = 0;  // Its share of the cache (cache_share applied).
  // Partitioned filters (partition_filters): a filter's blocks are its
  // partitions of about partition_bytes (metadata_block_size); else each
  // table's filter is one block.
  bool partitioned = true;
  double partition_bytes = 4096;
  // RocksDB before decouple_partitioned_filters (and with it false) cuts a
  // filter partition wherever it cuts an index partition: a table has at
  // least as many filter partitions as index partitions, however small.
  bool partitions_coupled = false;
  // RocksDB sizes a partition's keys to partition_bytes less this many
  // percent (block_size_deviation; partition_cut.h).
  double partition_slack_percent = 10;
  double high_pri_ratio = CacheWorkload::kDefaultHighPriRatio;

  // The filter bytes RocksDB fits each partition's keys to: partition_bytes
  // less partition_slack_percent, rounded up, at least 1.
  double PartitionCutBytes() const {
    return std::max(1.0, std::ceil(partition_bytes * (100 - partition_slack_percent) / 100));
  }

  // The blocks RocksDB cuts `filter_bytes` of filter into here: at least
  // `least` (a table's one; a run's tables), as many as fill partition_bytes
  // where partitioned, and at least `index_blocks` (its index's partitions)
  // where the two are cut together.
  double FilterBlocks(double filter_bytes, double least, double index_blocks) const {
    if (!partitioned || partition_bytes <= 0) return least;
    const double blocks = std::max(least, std::ceil(filter_bytes / partition_bytes));
    return partitions_coupled ? std::max(blocks, index_blocks) : blocks;
  }
};

// The budget chosen, and what the model says its Gets read.
struct CachePlan {
  double budget_bits = 0;  // Over the filtered runs (L0's held ones too).
  // Tables at this level or deeper get no filter; kAllFiltered: none do.
  int unfiltered_from = kAllFiltered;
  static constexpr int kAllFiltered = kAllLevelsFiltered;
  GetReads reads;
  double filter_bytes = 0;  // Spent at that budget.
  std::vector<RunBlocks> blocks;  // The runs' blocks under the plan.
  // The share of Gets that find their key it was made for, and whence.
  double hit_share = kAssumedHitShare;
  HitShareFrom hit_share_from = HitShareFrom::kAssumed;
  // The slices of the key space its Gets were spread over (the tables
  // whose sampled reads gave PopularityOf); 0: uniformly. And how far
  // each slice's Gets were gathered to meet the filter misses the DB's
  // statistics counted (spread_fit.h; kUnsharpened: not).
  size_t spread_slices = 0;
  double hot_width = kUnsharpened;
  // Made before any share was known (HitShareFrom::kAssumed): the worst,
  // over kRobustHitShares, of its reads over the fewest of the budget
  // series' plans at that share; 0: made for its share alone.
  double robust_worst = 0;
};

// The shares of Gets that find their key over which a plan made before any
// is known is weighed (RobustPlan in cache_budget.cc): from all absent to
// all found.
inline constexpr double kRobustHitShares[] = {0, 0.25, 0.5, 0.75, 1};

// Predicted reads this close (relative) count as a tie between the plans
// of different unfiltered levels, and between the budgets of one: well
// under the model's error (within 15% of the measured), and a choice that
// flips on such a margin from one table to the next leaves a tree built
// under both plans.
inline constexpr double kPlanReadsTie = 0.01;

// Device reads per Get below which no plan's reads matter (under 1 us of
// a 70 us device read per Get): there the filters save what the model does
// not count, the CPU of searching cached index and data blocks.
inline constexpr double kNegligibleReads = 0.01;

// Of `plans` (each the fewest reads of its unfiltered level, more filters first),
// the one with the fewest filter bytes among those reading within
// kPlanReadsTie of the fewest reads; where the fewest are negligible, the
// first whose reads are. REQUIRES: plans not empty.
CachePlan ChooseAmongPlans(std::vector<CachePlan> plans);

// Of `tried` (one unfiltered level's budgets), the plan of the largest
// budget among those reading within kPlanReadsTie of `fewest`'s reads
// (`fewest` where none is larger). The plan's rule where most Gets find
// no key: the false positives a filter's bits save are certain, the cache
// misses fewer bits would save rest on the Gets' spread, which the census
// sees only table by table (spread_fit.h). Where most find theirs the
// bits save little, and the fewest reads stand.
CachePlan MostFiltersAmongTies(std::vector<CachePlan> tried, CachePlan fewest);

// The workload the plan for `runs` is weighed at (PlanForCache): the hit
// share and the Gets' spread, which `base` records (the rest of it default).
CacheWorkload PlanWorkload(const FilterOptions& options, const TreeRuns& runs,
                           const CacheSite& cache, CachePlan* base);

// The hot width PlanWorkload sharpens `runs`' spread by: the given one,
// else the fit of the tree as it is to the misses the DB's statistics
// counted (kUnsharpened: none).
double SpreadFitOf(const FilterOptions& options, const TreeRuns& runs, const CacheSite& cache);

// The cache-aware plan for `runs` (the steady tree) under `options`
// (its encodings, bits_per_key, budget_mb and hit_share) at `cache`, for
// HitShareFor(options.per_level.hit_share, runs.hit_share)'s share of Gets
// that find their key (where none is known, the plan that is robust over
// every share: of the budget series' plans, the one whose worst ratio over
// kRobustHitShares to the fewest reads at a share is least; its reads are
// the assumed share's), spread over the keys as PopularityOf(*runs.traffic)
// says where the census read the traffic, sharpened where the DB's
// statistics counted fewer filter misses than that spread gives the tree
// as it is (FitHotWidth with runs.observed_misses), or by runs.given_hot_width.
// Where L0's tables stay (runs.targets.l0_stays), the plan takes them as
// built and sizes the levels on its budget less what they hold.
// REQUIRES: options resolved.
CachePlan PlanForCache(const FilterOptions& options, const TreeRuns& runs,
                       const CacheSite& cache);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_PLAN_CACHE_BUDGET_H_
