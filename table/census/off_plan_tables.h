// A DB's live tables against today's plan: for each table of the default
// column family below L0, the filter bits it was built with (its record,
// census_tree.h) and those its policy would give it were it built now
// (filter/plan/table_choice.h, for the census's latest tree under the
// policy's sizing, policy_registry.h), and what rebuilding each table off
// the plan would save and cost (filter/plan/rebuild_gain.h). The rebuild
// loop (rebuild_loop.h) acts on it; the advisor shows it.
#ifndef SSTFILTER_TABLE_CENSUS_OFF_PLAN_TABLES_H_
#define SSTFILTER_TABLE_CENSUS_OFF_PLAN_TABLES_H_

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "filter/cache_model/spread_fit.h"
#include "filter/plan/fp_rebuilds.h"
#include "filter/plan/rebuild_gain.h"
#include "rocksdb/db.h"
#include "rocksdb/metadata.h"
#include "table/census/census_tree.h"
#include "table/census/policy_registry.h"

namespace sstfilter {

// How the DB's default column family's policy sizes its filters
// (policy_registry.h); nullopt where it is not sstfilter's or was rejected.
std::optional<PolicySizing> SizingOfDb(rocksdb::DB* db);

struct OffPlanView {
  std::vector<TableAgainstPlan> tables;  // Every table below L0 whose record is known.
  std::vector<TableRebuild> gains;       // Of those off the plan.
  // The hot width (spread_fit.h) of the plan the tables were held against:
  // kUnsharpened where no fit to the cache's misses sharpened the spread.
  double hot_width = kUnsharpened;
  // Where the gains are the false positives' (fp_rebuilds.h: no block
  // cache modelled), the tree's bits against the plan's: the rewrites are
  // chosen within them (RebuildsWithinBudget).
  std::optional<TreeBits> bits;
};

// Whether the loop weighs `sizing`'s tables by their false positives (no
// block cache modelled; fp_rebuilds.h), planned by their level or, under
// access_aware, each by its key range's share of the Gets.
bool WeighedByFalsePositives(const PolicySizing& sizing);

// The view of `db`'s live tables `files`, by the census's `records` (by
// file number), under its policy's `sizing` (SizingOfDb); nullopt where
// the policy does not size its tables by the tree (not optimize_levels, or
// no tree published for the DB yet). Tables a compaction is rewriting are
// left out. `under_way`: the levels whose rewrites have begun, and whether
// to fewer bits per key (RebuildGains). The gains are the cache model's
// (rebuild_gain.h) where the filters are sized for a block cache, else
// the false positives' (fp_rebuilds.h). Under access_aware a table is
// planned by its key range (the listing's least and greatest user key),
// and none is weighed until the tree's traffic is known.

std::optional<OffPlanView> OffPlanTables(rocksdb::DB* db, const PolicySizing& sizing,
                                         const std::vector<rocksdb::LiveFileMetaData>& files,
                                         const std::map<uint64_t, TableRecord>& records,
                                         const std::map<int, bool>& under_way = {});

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_OFF_PLAN_TABLES_H_
