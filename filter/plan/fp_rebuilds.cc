#include "filter/plan/fp_rebuilds.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "filter/plan/filters_today.h"
#include "filter/plan/planned_runs.h"

namespace sstfilter {

double AddedBits(const TableRebuild& rebuild) {
  return rebuild.table.entries * (rebuild.table.planned_bits - rebuild.table.built_bits);
}

namespace {

// A level's off-plan tables and what moving them all to the plan saves
// and adds.
struct LevelRebuilds {
  std::vector<TableRebuild> tables;
  double saving = 0;
  double added_bits = 0;
};

// The reads a bit: saved per bit added, or added per bit freed.
double ReadsPerBit(const TableRebuild& r) {
  const double bits = std::abs(AddedBits(r));
  return bits > 0 ? std::abs(r.saving) / bits : 0;
}

bool PaysBack(const TableRebuild& r, double gets_per_second) {
  return r.saving > 0 && gets_per_second > BreakEvenGetsPerSecond(r.saving, r.cost_bytes);
}

}  // namespace

std::vector<TableRebuild> FpRebuildGains(const FilterOptions& options, const TreeRuns& runs,
                                         const std::vector<TableAgainstPlan>& tables,
                                         const std::map<int, bool>& under_way, TreeBits* bits) {
  const std::vector<PlannedRun> planned = RunsOf(options, runs);
  *bits = TreeBits{};
  for (const TableAgainstPlan& table : tables) {
    bits->budget += table.entries * table.planned_bits;
    bits->built += table.entries * table.built_bits;
  }
  // What L0's tables hold that the rewrites leave as it is.
  double l0_bits = 0;
  for (const PlannedRun& run : planned) {
    if (run.level == 0) l0_bits += static_cast<double>(run.census.fixed_filter_bits);
  }
  for (const TableAgainstPlan& table : tables) {
    if (table.level == 0) l0_bits -= table.entries * table.built_bits;
  }
  bits->add_limit = std::max(MostBits(options, planned) - std::max(l0_bits, 0.0), 0.0);
  if (options.per_level.budget_mb.has_value()) {
    // The plan's tables, each sized for its own key range's share
    // (access_aware), can together spend more than the budget the
    // allocation was solved for: the budget is the contract.
    bits->budget = std::min(bits->budget, bits->add_limit);
  }
  double reads_today = 0;
  // Levels below L0: one run each; L0: its first run, whose model an L0
  // table's FP is read off (its reach is its own, TableAgainstPlan::l0_reach).
  std::map<int, size_t> run_of_level;
  for (size_t i = 0; i < planned.size(); ++i) {
    const RunFilters today = FiltersToday(planned[i]);
    reads_today += planned[i].census.reach * today.fp_sum / std::max(planned[i].model.keys, 1.0);
    run_of_level.emplace(planned[i].level, i);
  }
  // Past the slack over the tables' own plans (not over budget_mb, which
  // plans by range can sum past with every table at its plan), a table over
  // its plan frees bits whatever its band.
  double plans = 0;
  for (const TableAgainstPlan& table : tables) plans += table.entries * table.planned_bits;
  const bool over = bits->built > (1 + kBudgetSlack) * plans;
  std::map<int, LevelRebuilds> moves;
  std::vector<TableRebuild> room;  // Within their bands, over their plans: frees for room only.
  for (const TableAgainstPlan& table : tables) {
    const auto run = run_of_level.find(table.level);
    const bool listed = OffPlan(table) || (over && OverPlan(table));
    if (run == run_of_level.end() || !(listed || OverPlan(table))) continue;
    const PlannedRun& r = planned[run->second];
    const double fp_saved = FpOrNone(r, table.built_bits) - FpOrNone(r, table.planned_bits);
    const double reach = table.share > 0 ? table.share
                         : table.l0_reach > 0
                             ? table.l0_reach
                             : r.census.reach * table.entries / std::max(r.model.keys, 1.0);
    TableRebuild rebuild{table, reach * fp_saved, 2 * table.file_bytes};
    if (!listed) {
      room.push_back(std::move(rebuild));
      continue;
    }
    LevelRebuilds& move = moves[table.level];
    move.saving += rebuild.saving;
    move.added_bits += AddedBits(rebuild);
    move.tables.push_back(std::move(rebuild));
  }
  std::vector<TableRebuild> gains;
  for (auto& [level, move] : moves) {
    const auto begun = under_way.find(level);
    const bool carried = begun != under_way.end() && begun->second == (move.added_bits < 0);
    if (move.added_bits > 0 && !carried && !(move.saving > kRebuildMargin * reads_today)) continue;
    for (TableRebuild& t : move.tables) gains.push_back(std::move(t));
  }
  for (TableRebuild& t : room) gains.push_back(std::move(t));
  return gains;
}

std::vector<TableRebuild> RebuildsWithinBudget(std::vector<TableRebuild> gains,
                                               double gets_per_second, const TreeBits& bits) {
  std::vector<TableRebuild> worth, frees, adds;
  for (TableRebuild& g : gains) {
    if (AddedBits(g) <= 0 && g.saving >= 0) {
      if (PaysBack(g, gets_per_second)) worth.push_back(std::move(g));
    } else {
      (AddedBits(g) < 0 ? frees : adds).push_back(std::move(g));
    }
  }
  double built = bits.built;
  for (const TableRebuild& w : worth) built += AddedBits(w);
  std::stable_sort(frees.begin(), frees.end(), [](const TableRebuild& a, const TableRebuild& b) {
    return ReadsPerBit(a) < ReadsPerBit(b);
  });
  // Past the slack, back to the budget itself: a tree that drifts over it
  // is not rewritten a table at a time.
  size_t next_free = 0;
  if (built > (1 + kBudgetSlack) * bits.budget) {
    for (; next_free < frees.size() && built > bits.budget; ++next_free) {
      built += AddedBits(frees[next_free]);
      worth.push_back(frees[next_free]);
    }
  }
  double room = std::min(bits.budget, bits.add_limit) - built;
  adds.erase(std::remove_if(adds.begin(), adds.end(),
                            [&](const TableRebuild& a) { return !PaysBack(a, gets_per_second); }),
             adds.end());
  std::stable_sort(adds.begin(), adds.end(), [](const TableRebuild& a, const TableRebuild& b) {
    return ReadsPerBit(a) > ReadsPerBit(b);
  });
  for (const TableRebuild& add : adds) {
    // The frees that make room for it, if it saves more a bit than they add.
    double made = room;
    size_t taken = next_free;
    while (made < AddedBits(add) && taken < frees.size() &&
           ReadsPerBit(frees[taken]) < ReadsPerBit(add)) {
      made -= AddedBits(frees[taken++]);
    }
    if (made < AddedBits(add)) continue;
    for (; next_free < taken; ++next_free) worth.push_back(frees[next_free]);
    worth.push_back(add);
    room = made - AddedBits(add);
  }
  return worth;
}

}  // namespace sstfilter
