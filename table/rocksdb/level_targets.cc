#include "table/rocksdb/level_targets.h"

#include <algorithm>
#include <cstdint>

namespace sstfilter {

LevelTargets LevelTargetsOf(const rocksdb::ColumnFamilyOptions& options, double bytes_per_entry) {
  LevelTargets targets;
  if (options.compaction_style != rocksdb::kCompactionStyleLevel) return targets;
  targets.leveled = true;
  // L0 fills to the trigger and a compaction empties it: half of it on
  // average while writes go on.
  targets.l0_tables = std::max((options.level0_file_num_compaction_trigger + 1) / 2, 1);
  targets.dynamic = options.level_compaction_dynamic_level_bytes;
  if (options.max_bytes_for_level_multiplier > 1) {
    targets.multiplier = options.max_bytes_for_level_multiplier;
  }
  if (bytes_per_entry > 0) {
    targets.base_entries = static_cast<double>(options.max_bytes_for_level_base) / bytes_per_entry;
  }
  return targets;
}

double BytesPerEntry(const std::vector<rocksdb::LiveFileMetaData>& files) {
  uint64_t bytes = 0, entries = 0;
  for (const rocksdb::LiveFileMetaData& f : files) {
    if (f.num_entries == 0) continue;
    bytes += f.size;
    entries += f.num_entries;
  }
  return entries == 0 ? 0 : static_cast<double>(bytes) / static_cast<double>(entries);
}

}  // namespace sstfilter
