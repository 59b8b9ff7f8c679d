#include "filter/allocation/tree_runs.h"

#include <algorithm>

namespace sstfilter {

namespace {

double MeanTableKeys(const RunCensus& run) {
  return run.tables > 0 ? static_cast<double>(run.keys) / static_cast<double>(run.tables) : 0;
}

// The mean table of `level` (0: L0's tables).
double MeanAt(const TreeRuns& runs, int level) {
  if (level == 0) return MeanL0TableKeys(runs);
  const auto at = static_cast<size_t>(level);
  return at < runs.levels.size() ? MeanTableKeys(runs.levels[at]) : 0;
}

}  // namespace

double MeanL0TableKeys(const TreeRuns& runs) {
  double keys = 0;
  for (const RunCensus& run : runs.l0_tables) keys += static_cast<double>(run.keys);
  return runs.l0_tables.empty() ? 0 : keys / static_cast<double>(runs.l0_tables.size());
}

int DeepestLevel(const TreeRuns& runs) {
  for (size_t level = runs.levels.size(); level-- > 1;) {
    if (runs.levels[level].keys > 0) return static_cast<int>(level);
  }
  return 0;
}

double ExpectedTableEntries(const TreeRuns& runs, int level) {
  if (level <= 0 && runs.last_flush_keys > 0) return static_cast<double>(runs.last_flush_keys);
  const int last = static_cast<int>(runs.levels.size()) - 1;
  // Outward from the table's level: itself, then one above and one below.
  for (int distance = 0; distance <= std::max(level, last); ++distance) {
    for (const int at : {level - distance, level + distance}) {
      if (at >= 0 && at <= last) {
        if (const double mean = MeanAt(runs, at); mean > 0) return mean;
      }
    }
  }
  return 0;
}

}  // namespace sstfilter
