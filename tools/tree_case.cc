#include "tools/tree_case.h"

#include <algorithm>
#include <cstdint>

#include "absl/strings/str_format.h"
#include "filter/allocation/tree_text.h"
#include "filter/bloom_math.h"
#include "filter/filter_options.h"

namespace sstfilter {

namespace {

// The policy of the cache advice: today's encoding and bits/key, per level,
// sized for the cache where it is known, at a stated share of Gets found.
std::string PolicyOf(const std::vector<TreeRun>& runs, bool cache_known,
                     const AdvisedHitShare& hit_share) {
  double bytes = 0, keys = 0;
  for (const TreeRun& run : runs) {
    bytes += static_cast<double>(run.filter_bytes()), keys += static_cast<double>(run.keys());
  }
  FilterOptions options;
  options.encoding = runs.back().encoding();
  options.bits_per_key = std::clamp(keys > 0 ? 8 * bytes / keys : 10, 1.0, kMaxBitsPerKey);
  options.per_level.optimize_levels = true;
  options.per_level.cache_aware = cache_known;
  if (cache_known && hit_share.from == HitShareFrom::kStated)
    options.per_level.hit_share = hit_share.share;
  return FormatPolicyId(options);
}

// A table of each run's mean size at its level (a flush for L0), the
// deepest bottommost.
std::string Decides(const std::vector<TreeRun>& runs) {
  std::string text;
  int deepest = 0;
  for (const TreeRun& run : runs) deepest = std::max(deepest, run.level);
  bool l0_done = false;
  for (const TreeRun& run : runs) {
    if (run.tables.empty() || (run.level == 0 && l0_done)) continue;
    l0_done = l0_done || run.level == 0;
    absl::StrAppendFormat(
        &text, "decide L%d%s%s entries=%d\n", run.level, run.level == 0 ? " flush" : "",
        run.level == deepest && run.level > 0 ? " bottommost" : "", run.keys() / run.tables.size());
  }
  return text;
}

uint64_t FirstFile(const TreeRun& run) {
  return run.tables.empty() ? 0 : run.tables.front().file_number;
}

}  // namespace

std::string TreeCase(const std::string& family, const std::vector<TreeRun>& listed,
                     const std::optional<AdvisedCache>& cache, const AdvisedHitShare& hit_share,
                     const TrafficSummary* traffic, const TableHost& host) {
  // L0's runs oldest first, as the census counts them (the steady tree
  // keeps the newest).
  std::vector<TreeRun> runs = listed;
  std::stable_sort(runs.begin(), runs.end(), [](const TreeRun& a, const TreeRun& b) {
    if (a.level != 0 || b.level != 0) return a.level < b.level;
    return FirstFile(a) < FirstFile(b);
  });
  TreeRuns census = CensusOf(runs);
  host.SetOn(&census);
  if (traffic != nullptr && !traffic->tables.empty()) {
    census.traffic = SummaryTraffic(runs, &traffic->tables, &traffic->exposures);
  }
  if (hit_share.from == HitShareFrom::kObserved || hit_share.from == HitShareFrom::kCarried) {
    census.hit_share = hit_share.share;
    census.hit_share_carried = true;  // The DB's last instance's, as its census wrote it.
  }
  std::string text = absl::StrFormat(
      "# Column family '%s' as sstfilter_sst --db found it: its tables' encoding at the\n"
      "# bits/key they spend today, per level%s. The level targets are not read (but\n"
      "# whether L0's tables stay, compactions off): the tree is sized as it is.\n",
      family, cache ? absl::StrFormat(", in the block cache of %s", cache->source) : "");
  absl::StrAppendFormat(&text, "policy %s\n", PolicyOf(runs, cache.has_value(), hit_share));
  if (cache.has_value()) {
    std::vector<RunBlocks> blocks;
    for (const TreeRun& run : runs) blocks.push_back(BlocksOf(run));
    const CacheSite site = AdvisedSite(blocks, *cache);
    absl::StrAppendFormat(&text, "cache mib=%.10g%s%s partition_bytes=%.10g high_pri_ratio=%.10g\n",
                          site.capacity_bytes / (1024 * 1024), site.partitioned ? "" : " whole",
                          site.partitions_coupled ? " coupled" : "", site.partition_bytes,
                          site.high_pri_ratio);
  }
  return text + TreeText(census) + Decides(runs) + "----\n";
}

}  // namespace sstfilter
