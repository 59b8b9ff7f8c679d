#include "table/census/level_targets.h"

#include <algorithm>

namespace sstfilter {

LevelTargets LevelTargetsOf(const rocksdb::ColumnFamilyOptions& options, double bytes_per_entry) {
  LevelTargets targets;
  // With automatic compactions off nothing holds the levels to targets: L0
  // keeps what flushes add until a compaction is asked for.
  targets.l0_stays = options.disable_auto_compactions;
  if (options.compaction_style != rocksdb::kCompactionStyleLevel ||
      options.disable_auto_compactions) {
    return targets;
  }
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

}  // namespace sstfilter
