#include "filter/allocation/table_choice.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>

#include "filter/allocation/level_encoding.h"
#include "filter/allocation/table_fp_target.h"
#include "filter/fp_target.h"

namespace sstfilter {

bool SizedByTree(const FilterOptions& options, const TableSite& site) {
  return options.optimize_levels && site.in_tree();
}

TableChoice ChooseForSite(const FilterOptions& options, const TableSite& site,
                          std::shared_ptr<const TreeRuns> runs) {
  TableChoice choice;
  choice.encoding = EncodingForSite(options, site);
  if (!SizedByTree(options, site) || runs == nullptr) return choice;
  const TablePlace place{site.run_level(), choice.encoding};
  const bool per_filter = place.level > 0 && TrafficFor(options, *runs) != nullptr;
  choice.setting = [options, runs = std::move(runs), place, per_filter,
                    fp = std::optional<double>()](const FilterKeys& keys) mutable {
    if (!fp.has_value() || per_filter) fp = TableFpTarget(options, *runs, place, keys);
    return BitsPerKeyForFp(place.encoding, std::max<size_t>(keys.entries, 1), *fp);
  };
  choice.reads_range = per_filter;
  return choice;
}

}  // namespace sstfilter
