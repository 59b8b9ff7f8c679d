// sstfilter_sst --db DIR's block-cache section: the device reads per Get a
// DB's filters cost at the block cache they share with its index and data
// blocks (filter/cache_model/cache_reads.h), and what the cache-aware policy
// (cache_aware, filter/plan/cache_budget.h) would read there instead.
#ifndef SSTFILTER_TOOLS_CACHE_ADVICE_H_
#define SSTFILTER_TOOLS_CACHE_ADVICE_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "filter/allocation/filters_by_run.h"
#include "filter/allocation/tree_traffic.h"
#include "filter/filter_options.h"
#include "filter/plan/cache_budget.h"
#include "filter/plan/tables_against_plan.h"
#include "table/census/level_moves.h"
#include "table/census/traffic_file.h"

namespace sstfilter {

// The block cache the report assumes, and where it came from.
struct AdvisedCache {
  double capacity_bytes = 0;
  double high_pri_ratio = 0.5;
  std::string source;  // "--cache_mb", "the DB's LOG (its last open)".
};

// The block cache of the DB's last open, as RocksDB's LOG in `dir` records
// it (its capacity and high-priority ratio) in its first kLogHeadBytes
// (where the open writes its options); nullopt if the LOG does not say (no
// LOG, another cache, the options not logged). The ratio is taken as the
// policy takes a cache's: one outside [0, 1] or unreadable is 0 (one
// list). An error names a LOG that is not a regular file (dir_file.h).
absl::StatusOr<std::optional<AdvisedCache>> CacheFromLog(const std::string& dir);
inline constexpr size_t kLogHeadBytes = size_t{16} << 20;

// --cache_mb's value checked (MiB > 0), or an error naming the flag and
// its value as given (`shown`).
absl::StatusOr<double> CheckCacheMb(double mb, const std::string& shown);
// --hit_share's value checked (in [0, 1]), or an error naming the flag.
absl::StatusOr<double> CheckHitShare(double share, const std::string& shown);

// The share of Gets that find their key the section is for, and whence:
// --hit_share, else the DB's statistics (as the census left them in the
// traffic summary), else kAssumedHitShare.
struct AdvisedHitShare {
  double share = kAssumedHitShare;
  HitShareFrom from = HitShareFrom::kAssumed;
};

// `cache` as the plan sees it for runs of `blocks`: partitioned filters
// (partitions of their mean size) if any table's filter has more than one
// block, cut with the index partitions if there are as many.
CacheSite AdvisedSite(const std::vector<RunBlocks>& blocks, const AdvisedCache& cache);

// The traffic of `runs` as the census would hand it to the model: each
// table's share of the Gets as the traffic summary's `shares` say, else
// its share were Gets spread like the keys; the sampled Gets behind a
// share from the summary's `exposures` (none known without them). nullptr
// when `shares` is.
std::shared_ptr<const TreeTraffic> SummaryTraffic(const std::vector<TreeRun>& runs,
                                                  const TableShares* shares,
                                                  const TableShares* exposures = nullptr);

// Prints the section for one column family's runs (newest first), its
// Gets spread over the keys as the tables' `shares` say (the traffic
// summary's; nullptr: uniformly), and the rebuild loop's moves under way
// (PrintRebuildAdvice). The plan it shows is `policy`'s (the column
// family's, as its OPTIONS file makes it) where that is a cache-aware
// sstfilter policy, else that of one with today's encoding and filter
// bytes; either at `hit_share`. `host`: as PrintRebuildAdvice's.
void PrintCacheAdvice(const std::vector<TreeRun>& runs, const AdvisedCache& cache,
                      const AdvisedHitShare& hit_share, const TableShares* shares,
                      const LevelMoveTimes& moves, const std::optional<FilterOptions>& policy,
                      const TableHost& host);

}  // namespace sstfilter

#endif  // SSTFILTER_TOOLS_CACHE_ADVICE_H_
