// sstfilter_sst --db DIR --tree_text: a column family's tree as a decision
// case (tests/decisions/, filter/allocation/tree_text.h), ready to be
// decided: the policy the cache-aware advice would run (the tables'
// encoding at the bits/key they spend today), the block cache the report
// assumes, the tree as the census would count it (with the traffic
// summary's shares and hit share), and a table to decide at each level.
// Save it under tests/decisions/ and run decision_cases_test with
// SSTFILTER_REWRITE_DECISIONS=1 to write its decisions.
#ifndef SSTFILTER_TOOLS_TREE_CASE_H_
#define SSTFILTER_TOOLS_TREE_CASE_H_

#include <optional>
#include <string>
#include <vector>

#include "filter/allocation/filters_by_run.h"
#include "filter/plan/tables_against_plan.h"
#include "table/census/traffic_file.h"
#include "tools/cache_advice.h"

namespace sstfilter {

// The case for column family `family`'s runs (in GroupIntoRuns' order;
// not empty): L0's written oldest first, as the census counts them.
// `cache`: nullopt when not known (the case then has no cache line and
// its policy no cache_aware). `traffic`: the DB's traffic summary (null:
// none). `host`: what its options say of how RocksDB builds and compacts
// its tables (optimize_filters_for_hits, automatic compactions off).
std::string TreeCase(const std::string& family, const std::vector<TreeRun>& runs,
                     const std::optional<AdvisedCache>& cache, const AdvisedHitShare& hit_share,
                     const TrafficSummary* traffic, const TableHost& host);

}  // namespace sstfilter

#endif  // SSTFILTER_TOOLS_TREE_CASE_H_
