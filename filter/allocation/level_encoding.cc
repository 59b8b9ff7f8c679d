#include "filter/allocation/level_encoding.h"

namespace sstfilter {

EncodingId EncodingForSite(const FilterOptions& options, const TableSite& site) {
  if (!options.per_level.compact_from_level.has_value()) return options.encoding;
  if (!site.tree_has_levels) return EncodingId::kCompact;
  if (site.flush) return options.encoding;
  return site.level < 0 || site.level >= *options.per_level.compact_from_level || site.bottommost
             ? EncodingId::kCompact
             : options.encoding;
}

EncodingId EncodingForLevel(const FilterOptions& options, int level, bool is_bottommost) {
  return EncodingForSite(options, TableSite{true, level <= 0, level, is_bottommost});
}

}  // namespace sstfilter
