#include "filter/allocation/steady_tree.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace sstfilter {

namespace {

// The level L0's tables compact into: L1, or under dynamic level bytes the
// first level that holds tables, but not below `level`.
int L0Target(const TreeRuns& runs, int level) {
  if (!runs.targets.dynamic) return 1;
  for (int l = 1; l < level; ++l) {
    if (runs.levels[l].keys > 0) return l;
  }
  return level;
}

// The level's target in entries; 0: none.
double TargetEntries(const TreeRuns& runs, int level, int deepest) {
  const LevelTargets& t = runs.targets;
  if (t.dynamic) {
    const size_t bottom = static_cast<size_t>(deepest);
    const double keys = bottom < runs.levels.size() ? static_cast<double>(runs.levels[bottom].keys) : 0;
    return keys / std::pow(t.multiplier, deepest - level);
  }
  return t.base_entries * std::pow(t.multiplier, level - 1);
}

// Holds `run` to `keys` entries, its fixed part and tables in proportion
// (the same bits per key, the same table size).
void ShrinkTo(RunCensus* run, double keys) {
  const double f = keys / static_cast<double>(run->keys);
  auto scaled = [f](uint64_t v) { return static_cast<uint64_t>(std::llround(v * f)); };
  run->keys = static_cast<uint64_t>(std::llround(keys));
  run->fixed_keys = std::min(scaled(run->fixed_keys), run->keys);
  run->fixed_filter_bits = scaled(run->fixed_filter_bits);
  run->unfiltered_keys = std::min(scaled(run->unfiltered_keys), run->fixed_keys);
  run->tables = std::max<uint64_t>(scaled(run->tables), 1);
}

}  // namespace

TreeRuns SteadyTree(const TreeRuns& runs, int level) {
  if (!runs.targets.leveled || level <= 0) return runs;
  TreeRuns out = runs;
  if (out.levels.size() <= static_cast<size_t>(level)) out.levels.resize(level + 1);
  const auto keep = static_cast<size_t>(std::max(runs.targets.l0_tables, 0));
  if (keep > 0 && out.l0_tables.size() > keep) {
    // The oldest go down first.
    const auto drop = static_cast<std::ptrdiff_t>(out.l0_tables.size() - keep);
    uint64_t excess = 0;
    for (auto run = out.l0_tables.begin(); run != out.l0_tables.begin() + drop; ++run) {
      excess += run->keys;
    }
    out.l0_tables.erase(out.l0_tables.begin(), out.l0_tables.begin() + drop);
    out.levels[L0Target(out, level)].keys += excess;
  }
  const int deepest = std::max(DeepestLevel(runs), level);
  for (int l = 1; l < level; ++l) {
    RunCensus& run = out.levels[l];
    const double target = TargetEntries(runs, l, deepest);
    if (target <= 0 || static_cast<double>(run.keys) <= target) continue;
    const uint64_t before = run.keys;
    ShrinkTo(&run, target);
    out.levels[l + 1].keys += before - run.keys;
  }
  return out;
}

}  // namespace sstfilter
