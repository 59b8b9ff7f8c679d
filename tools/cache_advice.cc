#include "tools/cache_advice.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "filter/allocation/tree_traffic.h"
#include "filter/bloom_math.h"
#include "filter/cache_model/cache_reads.h"
#include "filter/cache_model/traffic_popularity.h"
#include "filter/filter_options.h"
#include "filter/plan/cache_budget.h"
#include "table/census/dir_file.h"
#include "table/census/traffic_file.h"
#include "tools/rebuild_advice.h"

namespace sstfilter {

namespace {

constexpr double kMib = 1024.0 * 1024;

// The number after `key` at the start of `line` (leading spaces skipped).
std::optional<double> NumberAfter(absl::string_view line, absl::string_view key) {
  line = absl::StripLeadingAsciiWhitespace(line);
  if (!absl::ConsumePrefix(&line, key)) return std::nullopt;
  double value = 0;
  if (!absl::SimpleAtod(absl::StripAsciiWhitespace(line), &value)) return std::nullopt;
  return value;
}

std::string Split(const GetReads& r) {
  return absl::StrFormat("%.3f + %.3f + %.3f = %.3f", r.filter, r.index, r.data, r.total());
}

// The three workloads' reads of `blocks`.
void PrintReads(const std::vector<RunBlocks>& blocks, const AdvisedCache& cache,
                const KeyPopularity& popularity, double hit_share, const std::string& hit_note) {
  auto at = [&](double hit) {
    CacheWorkload workload{cache.capacity_bytes, hit, cache.high_pri_ratio};
    workload.popularity = popularity;
    return Split(PredictReads(blocks, workload));
  };
  absl::PrintF("  absent Gets   %s\n", at(0));
  absl::PrintF("  present Gets  %s\n", at(1));
  absl::PrintF("  %.0f%% found    %s (%s)\n", 100 * hit_share, at(hit_share), hit_note);
}


}  // namespace

absl::StatusOr<std::optional<AdvisedCache>> CacheFromLog(const std::string& dir) {
  const absl::StatusOr<std::string> log = ReadRegularFileHead(dir + "/LOG", kLogHeadBytes);
  if (absl::IsNotFound(log.status())) return std::nullopt;
  if (!log.ok()) return log.status();
  std::optional<AdvisedCache> found;
  AdvisedCache cache;
  bool lru = false, in_options = false;
  for (const absl::string_view line : absl::StrSplit(*log, '\n')) {
    if (absl::StrContains(line, "block_cache_name:")) {
      lru = absl::StrContains(line, "LRUCache");
      continue;
    }
    if (absl::StrContains(line, "block_cache_options:")) {
      // An LRU cache's pool is 0.5 unless the options say; other caches
      // (HyperClockCache, RocksDB 10's default) are taken as one list.
      in_options = true;
      cache = AdvisedCache{0, lru ? 0.5 : 0.0, "the DB's LOG: its last open"};
      continue;
    }
    if (!in_options) continue;
    if (!absl::StartsWith(line, "    ")) {
      in_options = false;
    } else if (const auto capacity = NumberAfter(line, "capacity :")) {
      cache.capacity_bytes = std::isfinite(*capacity) && *capacity > 0 ? *capacity : 0;
    } else if (const auto ratio = NumberAfter(line, "high_pri_pool_ratio:")) {
      cache.high_pri_ratio = *ratio >= 0 && *ratio <= 1 ? *ratio : 0;
    }
    if (cache.capacity_bytes > 0) found = cache;
  }
  return found;
}

absl::StatusOr<double> CheckCacheMb(double mb, const std::string& shown) {
  if (mb > 0 && mb <= kMaxBudgetMb) return mb;
  return absl::InvalidArgumentError(absl::StrFormat(
      "--cache_mb=%s: expected the block cache's MiB, more than 0 and at most %.0f", shown,
      kMaxBudgetMb));
}

absl::StatusOr<double> CheckHitShare(double share, const std::string& shown) {
  if (share >= 0 && share <= 1) return share + 0.0;  // -0 is 0.
  return absl::InvalidArgumentError(absl::StrFormat(
      "--hit_share=%s: expected the share of Gets that find their key, in [0, 1]", shown));
}

namespace {

// Where the share came from, as the section says it.
std::string HitShareNote(HitShareFrom from) {
  switch (from) {
    case HitShareFrom::kStated:
      return "--hit_share";
    case HitShareFrom::kObserved:
    case HitShareFrom::kCarried:
      return absl::StrFormat("the DB's Gets, as its census last wrote them in %s",
                             kTrafficFileName);
    case HitShareFrom::kAssumed:
      break;
  }
  return "assumed; --hit_share states it";
}

// The cache-aware policy the section plans with: the column family's own
// where it is one (the plan its rebuild loop follows), else one with
// today's encoding and `filter_bytes_per_key` as its most.
FilterOptions AdvisedPolicy(const std::vector<TreeRun>& runs, double filter_bytes_per_key,
                            const std::optional<FilterOptions>& policy) {
  if (policy.has_value() && policy->per_level.optimize_levels && policy->per_level.cache_aware) {
    return *policy;
  }
  FilterOptions options;
  options.encoding = runs.back().encoding();
  options.bits_per_key = std::clamp(8 * filter_bytes_per_key, 1.0, kMaxBitsPerKey);
  options.per_level.optimize_levels = options.per_level.cache_aware = true;
  return options;
}

}  // namespace

CacheSite AdvisedSite(const std::vector<RunBlocks>& blocks, const AdvisedCache& cache) {
  CacheSite site;
  site.capacity_bytes = cache.capacity_bytes;
  site.high_pri_ratio = cache.high_pri_ratio;
  double bytes = 0, count = 0, runs_tables = 0;
  for (const RunBlocks& b : blocks) bytes += b.filter_bytes, count += b.filter_blocks;
  for (const RunBlocks& b : blocks) runs_tables += b.filter_blocks > 0 ? 1 : 0;
  site.partitioned = count > runs_tables;
  if (count > 0) site.partition_bytes = std::max(bytes / count, 1.0);
  // As many filter partitions as index partitions: cut together.
  double index_blocks = 0;
  for (const RunBlocks& b : blocks) index_blocks += b.index_blocks;
  site.partitions_coupled = site.partitioned && count >= index_blocks;
  // The partitions' mean as they were cut, not metadata_block_size: no slack
  // to take off it (partition_cut.h).
  site.partition_slack_percent = 0;
  return site;
}

std::shared_ptr<const TreeTraffic> SummaryTraffic(const std::vector<TreeRun>& runs,
                                                  const TableShares* shares,
                                                  const TableShares* exposures) {
  if (shares == nullptr) return nullptr;
  std::map<uint64_t, double> uniform;  // For the tables the summary has no share of.
  for (const TreeRun& run : runs) {
    for (const TableFilters& t : run.tables) {
      uniform[t.file_number] = UniformShare(run.reach, static_cast<double>(t.keys),
                                            static_cast<double>(run.keys()));
    }
  }
  auto share = [&](const TableFilters& t) {
    const auto known = shares->find(t.file_number);
    return known != shares->end() ? known->second : uniform[t.file_number];
  };
  // The sampled Gets behind a share: its exposure at it (its counts as the
  // census wrote them, shrunk).
  auto sampled = [&](const TableFilters& t) {
    if (exposures == nullptr || shares->count(t.file_number) == 0) return 0.0;
    const auto exposure = exposures->find(t.file_number);
    return exposure != exposures->end() ? share(t) * exposure->second : 0.0;
  };
  return std::make_shared<const TreeTraffic>(TrafficOf(runs, share, sampled));
}

void PrintCacheAdvice(const std::vector<TreeRun>& runs, const AdvisedCache& cache,
                      const AdvisedHitShare& advised, const TableShares* shares,
                      const LevelMoveTimes& moves, const std::optional<FilterOptions>& policy,
                      const TableHost& host) {
  const double hit_share = advised.share;
  const std::string hit_note = HitShareNote(advised.from);
  std::vector<RunBlocks> blocks;
  double filter_bytes = 0, keys = 0;
  for (const TreeRun& run : runs) {
    blocks.push_back(BlocksOf(run));
    filter_bytes += blocks.back().filter_bytes, keys += blocks.back().keys;
  }
  if (keys <= 0) return;
  absl::PrintF("\nblock cache %.2f MiB (from %s), high-priority pool %.0f%%:\n",
               cache.capacity_bytes / kMib, cache.source, 100 * cache.high_pri_ratio);
  const double ratio = filter_bytes / cache.capacity_bytes;
  absl::PrintF("the filters, %.2f MiB, are %.2fx the cache: %s\n", filter_bytes / kMib, ratio,
               ratio > 1 ? "they do not fit; a Get that checks one reads its partition from the "
                           "device when the cache has not kept it"
                         : "they fit, beside what the index and data blocks leave them");
  TreeRuns census = CensusOf(runs);
  census.traffic = SummaryTraffic(runs, shares);
  host.SetOn(&census);
  const KeyPopularity popularity =
      census.traffic != nullptr ? PopularityOf(*census.traffic) : KeyPopularity();
  absl::PrintF("device reads per Get today, filter + index + data (cache model; Gets spread %s):\n",
               popularity.uniform()
                   ? "uniformly"
                   : absl::StrFormat("as %s's table shares say", kTrafficFileName));
  PrintReads(blocks, cache, popularity, hit_share, hit_note);
  FilterOptions options = AdvisedPolicy(runs, filter_bytes / keys, policy);
  options.per_level.hit_share = hit_share;
  const CachePlan plan = PlanForCache(options, census, AdvisedSite(blocks, cache));
  if (plan.blocks.empty()) return;
  absl::PrintF("%s would keep %.2f MiB of filters%s:\n", FormatPolicyId(options),
               plan.filter_bytes / kMib,
               plan.unfiltered_from == CachePlan::kAllFiltered
                   ? ""
                   : absl::StrFormat(", none at L%d and below", plan.unfiltered_from));
  PrintReads(plan.blocks, cache, popularity, hit_share, hit_note);
  PrintRebuildAdvice(runs, std::move(census), options, AdvisedSite(blocks, cache), moves,
                     advised.from, host);
}

}  // namespace sstfilter
