#include "filter/allocation/table_fp_target.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

#include "filter/allocation/fp_curve.h"
#include "filter/allocation/level_encoding.h"
#include "filter/allocation/run_allocation.h"
#include "filter/allocation/steady_tree.h"
#include "filter/allocation/traffic_parts.h"

namespace sstfilter {

namespace {

// The model of a run of the census in `encoding`, its filters as big as
// its tables' mean (or filter_keys).
RunModel ModelOf(const RunCensus& run, EncodingId encoding, double bits_per_key,
                 double filter_keys = 0) {
  if (filter_keys <= 0 && run.tables > 0) {
    filter_keys = static_cast<double>(run.keys) / static_cast<double>(run.tables);
  }
  RunModel model = EncodingRunModel(encoding, static_cast<double>(run.keys), bits_per_key,
                                    filter_keys, kTableCurveNodes);
  model.reach = run.reach > 0 ? run.reach : 1.0;
  model.fixed_keys = static_cast<double>(std::min(run.fixed_keys, run.keys));
  model.fixed_bits = static_cast<double>(run.fixed_filter_bits);
  return model;
}

// The options' byte budget in bits; infinity if none.
double BudgetBits(const FilterOptions& options) {
  if (!options.per_level.budget_mb.has_value()) return std::numeric_limits<double>::infinity();
  return *options.per_level.budget_mb * 8.0 * 1024 * 1024;
}

// The level's model, split by its tables' lookups when `traffic` says.
void AddLevelModels(const RunModel& model, int level, const TreeTraffic* traffic,
                    std::vector<RunModel>* models) {
  const bool split = traffic != nullptr && static_cast<size_t>(level) < traffic->levels.size();
  for (RunModel& part : split ? SplitByTraffic(model, traffic->levels[level])
                              : std::vector<RunModel>{model}) {
    part.group = level;
    models->push_back(std::move(part));
  }
}

}  // namespace

const TreeTraffic* TrafficFor(const FilterOptions& options, const TreeRuns& runs) {
  if (!options.per_level.access_aware || runs.traffic == nullptr || !runs.traffic->known()) {
    return nullptr;
  }
  return runs.traffic.get();
}

TableFpRule TableFpRuleFor(const FilterOptions& options, const TreeRuns& live,
                           const TablePlace& place, double expected_entries,
                           int unfiltered_from) {
  const TreeRuns runs = SteadyTree(live, place.level);
  const double bits = options.bits_per_key;
  const int deepest = std::max(DeepestLevel(runs), place.level);
  const TreeTraffic* traffic = TrafficFor(options, runs);
  if (runs.deepest_unfiltered && place.level < deepest) {
    unfiltered_from = std::min(unfiltered_from, deepest);
  }
  // Tables at levels are in a tree with levels (leveled or universal).
  auto encoding_at = [&](int level) { return EncodingForLevel(options, level, level == deepest); };
  std::vector<RunModel> models;
  // Where L0's tables stay (automatic compactions off: nothing compacts
  // them), a table below L0 is planned without them, on the tree's budget
  // less the bits they hold: the levels repay what L0 holds over its share
  // (an allocation leaves a run's debt with the run, which for these is
  // never compacted away).
  const bool l0_apart = runs.targets.l0_stays && place.level > 0;
  double l0_share_bits = 0, l0_held_bits = 0;
  for (const RunCensus& run : runs.l0_tables) {
    if (run.keys == 0) continue;
    RunModel model = ModelOf(run, encoding_at(0), bits);
    if (l0_apart) {
      // A part still being written (a job's output) at its share.
      l0_share_bits += model.keys * model.uniform_bits;
      l0_held_bits += model.fixed_bits + (model.keys - model.fixed_keys) * model.uniform_bits;
    } else {
      models.push_back(std::move(model));
    }
  }
  const auto n = static_cast<uint64_t>(std::max(expected_entries, 1.0));
  size_t mine = 0;
  if (place.level <= 0) {
    // A run of its own, all of it being written.
    RunCensus own;
    own.keys = std::max(n, static_cast<uint64_t>(MeanL0TableKeys(runs)));
    mine = models.size();
    models.push_back(ModelOf(own, place.encoding, bits, static_cast<double>(n)));
  }
  for (RunModel& model : models) model.group = 0;  // L0.
  const size_t levels =
      std::min(std::max(runs.levels.size(), static_cast<size_t>(place.level) + 1),
               static_cast<size_t>(std::max(unfiltered_from, 1)));
  std::optional<RunModel> by_range;  // The table's level, its filters sized by their ranges.
  for (size_t level = 1; level < levels; ++level) {
    RunCensus run = level < runs.levels.size() ? runs.levels[level] : RunCensus{};
    const bool is_mine = static_cast<int>(level) == place.level;
    // The table is being written into its level: at least its entries are.
    if (is_mine) run.keys = std::max(run.keys, std::min(run.fixed_keys, run.keys) + n);
    if (run.keys == 0) continue;
    const auto at = static_cast<int>(level);
    if (!is_mine) {
      AddLevelModels(ModelOf(run, encoding_at(at), bits), at, traffic, &models);
      continue;
    }
    // Its filters as big as its tables', or as the table if it has none.
    RunModel level_model =
        ModelOf(run, place.encoding, bits, run.tables > 0 ? 0 : static_cast<double>(n));
    mine = models.size();
    level_model.group = at;
    if (traffic != nullptr) by_range = level_model;
    models.push_back(std::move(level_model));
  }
  double budget = BudgetBits(options);
  if (l0_apart) {
    double uniform = l0_share_bits;
    for (const RunModel& model : models) uniform += model.keys * model.uniform_bits;
    budget = std::max(std::min(uniform, budget) - l0_held_bits, 0.0);
  }
  TableFpRule rule;
  // A filter whose range is not known: the level whole, as without traffic.
  rule.fp = AllocateFreeRunFpRates(models, budget)[mine];
  if (!by_range.has_value()) return rule;
  // Access-aware: the level split by what its tables saw; each filter of
  // the table a run of its own at the multiplier, slope and factor its
  // level's parts get (FilterFp).
  models.erase(models.begin() + static_cast<std::ptrdiff_t>(mine));
  const size_t part = models.size();
  AddLevelModels(*by_range, by_range->group, traffic, &models);
  const RunAllocation split = AllocateFreeRuns(models, budget);
  rule.by_range = TableFpRule::ByRange{runs.traffic,       split.mu,      split.slope[part],
                                       split.factor[part], by_range->keys, by_range->reach};
  if (runs.rewrite_level == place.level) rule.by_range->own_level = place.level;
  return rule;
}

double TableFpTarget(const FilterOptions& options, const TreeRuns& runs, const TablePlace& place,
                     const FilterKeys& keys, int unfiltered_from) {
  return FilterFp(
      TableFpRuleFor(options, runs, place, static_cast<double>(keys.entries), unfiltered_from),
      keys);
}

}  // namespace sstfilter
