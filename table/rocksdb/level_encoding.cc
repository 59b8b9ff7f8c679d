#include "table/rocksdb/level_encoding.h"

#include "rocksdb/advanced_options.h"
#include "rocksdb/types.h"

namespace sstfilter {

bool IsFlush(const rocksdb::FilterBuildingContext& context) {
  return context.reason == rocksdb::TableFileCreationReason::kFlush ||
         context.reason == rocksdb::TableFileCreationReason::kRecovery;
}

namespace {

// Whether the tree ever moves the table's keys into a lower level.
bool TreeHasLevels(rocksdb::CompactionStyle style) {
  return style == rocksdb::kCompactionStyleLevel || style == rocksdb::kCompactionStyleUniversal;
}

bool WantsCompact(int compact_from_level, const rocksdb::FilterBuildingContext& context) {
  if (!TreeHasLevels(context.compaction_style)) return true;
  if (IsFlush(context)) return false;
  return context.level_at_creation < 0 || context.level_at_creation >= compact_from_level ||
         context.is_bottommost;
}

}  // namespace

EncodingId EncodingForLevel(const FilterOptions& options, rocksdb::CompactionStyle style,
                          int level, bool is_bottommost) {
  if (!options.compact_from_level.has_value()) return options.encoding;
  if (!TreeHasLevels(style)) return EncodingId::kCompact;
  if (level <= 0) return options.encoding;
  return level >= *options.compact_from_level || is_bottommost ? EncodingId::kCompact
                                                               : options.encoding;
}

EncodingId EncodingForTable(const FilterOptions& options,
                            const rocksdb::FilterBuildingContext& context) {
  if (!options.compact_from_level.has_value()) return options.encoding;
  return WantsCompact(*options.compact_from_level, context) ? EncodingId::kCompact
                                                            : options.encoding;
}

}  // namespace sstfilter
