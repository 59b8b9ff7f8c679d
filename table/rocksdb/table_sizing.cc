#include "table/rocksdb/table_sizing.h"

#include <memory>
#include <utility>

#include "rocksdb/advanced_options.h"
#include "rocksdb/types.h"
#include "table/census/table_tree.h"

namespace sstfilter {

namespace {

TableSite SiteOf(const rocksdb::FilterBuildingContext& context) {
  TableSite site;
  site.tree_has_levels = context.compaction_style == rocksdb::kCompactionStyleLevel ||
                         context.compaction_style == rocksdb::kCompactionStyleUniversal;
  site.flush = context.reason == rocksdb::TableFileCreationReason::kFlush ||
               context.reason == rocksdb::TableFileCreationReason::kRecovery;
  site.level = context.level_at_creation;
  site.bottommost = context.is_bottommost;
  return site;
}

}  // namespace

TableChoice ChooseForTable(const FilterOptions& options,
                           const rocksdb::FilterBuildingContext& context) {
  const TableSite site = SiteOf(context);
  std::shared_ptr<const TreeRuns> runs;
  if (SizedByTree(options, site)) {
    runs = TreeForTable(context.info_log, context.column_family_name);
  }
  return ChooseForSite(options, site, std::move(runs));
}

}  // namespace sstfilter
