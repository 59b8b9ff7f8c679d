#include "tools/rebuild_advice.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <string>

#include "absl/strings/str_format.h"
#include "filter/plan/cache_plan_memo.h"
#include "filter/plan/fp_rebuilds.h"
#include "filter/plan/rebuild_gain.h"
#include "filter/plan/tables_against_plan.h"
#include "tools/cache_advice.h"

namespace sstfilter {

namespace {

constexpr double kBytesPerMib = 1024.0 * 1024;
constexpr size_t kListed = 5;

std::string Bits(double bits) {
  return bits > 0 ? absl::StrFormat("%.1f", bits) : std::string("none");
}

// A listed rewrite's table and its bits: "#N LX, built -> planned bits/key".
std::string RewriteHead(const TableRebuild& g) {
  return absl::StrFormat("#%d L%d, %s -> %s bits/key", g.table.number, g.table.level,
                         Bits(g.table.built_bits), Bits(g.table.planned_bits));
}

std::vector<BuiltTable> BuiltTables(const std::vector<TreeRun>& runs) {
  std::vector<BuiltTable> built;
  for (const TreeRun& run : runs) {
    for (const TableFilters& t : run.tables) {
      built.push_back({t.file_number, t.level, static_cast<double>(t.keys),
                       static_cast<double>(t.data_bytes + t.index_bytes + t.filter_bytes),
                       8.0 * static_cast<double>(t.filter_bytes + t.partition_index_bytes),
                       static_cast<double>(t.index_blocks), t.user_key_bytes,
                       static_cast<double>(t.index_top_bytes), true, t.smallest, t.largest});
    }
  }
  return built;
}

}  // namespace

void PrintRebuildAdvice(const std::vector<TreeRun>& runs, TreeRuns census,
                        const FilterOptions& options, const CacheSite& cache,
                        const LevelMoveTimes& moves, HitShareFrom share_from,
                        const TableHost& host) {
  const std::vector<BuiltTable> built = BuiltTables(runs);
  const auto tree = std::make_shared<const TreeRuns>(AsBuilt(std::move(census), built));
  CachePlanMemo plans;
  const std::vector<TableAgainstPlan> tables =
      TablesAgainstPlan(options, tree, &cache, &plans, host, built);
  std::map<int, bool> under_way;
  for (const auto& [level, move] : moves) {
    under_way[level] = move.first;
    absl::PrintF(
        "L%d: the census's rebuild loop began moving its filters to %s bits/key within the last "
        "%d s (the traffic file): it carries the move through, and a table to be moved the "
        "other way waits\n",
        level, move.first ? "fewer" : "more", static_cast<int>(kPaybackHorizon.count()));
  }
  std::vector<TableRebuild> gains = RebuildGains(options, *tree, cache, tables, under_way);
  double saving = 0, cost = 0;
  for (const TableRebuild& g : gains) saving += std::max(g.saving, 0.0), cost += g.cost_bytes;
  absl::PrintF(
      "tables off that plan (bits/key more than %.2f from its, or a filter it drops or "
      "gives): %d of the %d below L0\n",
      kOffPlanBits, gains.size(), tables.size());
  if (gains.empty()) {
    absl::PrintF("  the census's rebuild loop (cache_aware, rebuild_mb_s) rewrites none\n");
    return;
  }
  absl::PrintF(
      "  rewriting them saves %.4f device reads per Get by the model (each alone, "
      "summed) and reads and writes %.1f MiB\n",
      saving, cost / kBytesPerMib);
  if (share_from == HitShareFrom::kAssumed) {
    absl::PrintF(
        "  the census's rebuild loop rewrites none while the share of Gets found is assumed: it "
        "waits for the DB's Gets to tell it\n");
    return;
  }
  if (RebuildBytesPerSecond(options) <= 0) {
    absl::PrintF("  the census's rebuild loop rewrites none (rebuild_mb_s:0)\n");
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  const size_t off_plan = gains.size();
  gains.erase(
      std::remove_if(gains.begin(), gains.end(),
                     [&](const TableRebuild& g) { return WaitsForTheOtherMove(moves, g, now); }),
      gains.end());
  if (gains.size() < off_plan) {
    absl::PrintF("  %d of them wait out a move of their level the other way\n",
                 off_plan - gains.size());
  }
  const size_t not_waiting = gains.size();
  gains = RebuildsWorthIt(std::move(gains), std::numeric_limits<double>::max());
  if (gains.size() < not_waiting) {
    absl::PrintF("  %d of them would save no reads: the loop leaves them\n",
                 not_waiting - gains.size());
  }
  if (gains.empty()) return;
  absl::PrintF(
      "  the census's rebuild loop rewrites the rest, most saving per byte first, each "
      "once the DB serves enough Gets a second to pay for it within %d s:\n",
      static_cast<int>(kPaybackHorizon.count()));
  for (size_t i = 0; i < std::min(gains.size(), kListed); ++i) {
    const TableRebuild& g = gains[i];
    absl::PrintF("  %s: saves %.4f reads per Get, rewrites %.1f MiB, from %.0f Gets/s\n",
                 RewriteHead(g), g.saving, g.cost_bytes / kBytesPerMib,
                 BreakEvenGetsPerSecond(g.saving, g.cost_bytes));
  }
  if (gains.size() > kListed) {
    const TableRebuild& last = gains.back();
    absl::PrintF("  ... and %d more, the last from %.0f Gets/s\n", gains.size() - kListed,
                 BreakEvenGetsPerSecond(last.saving, last.cost_bytes));
  }
}

void PrintFpRebuildAdvice(const std::vector<TreeRun>& runs, const FilterOptions& options,
                          const LevelMoveTimes& moves, const TableShares* shares,
                          const TableShares* exposures, const TableHost& host) {
  if (options.per_level.access_aware && shares == nullptr) {
    absl::PrintF(
        "\n%s: the census's rebuild loop weighs no table until the Gets' traffic is known (no "
        "%s with table shares)\n",
        FormatPolicyId(options), kTrafficFileName);
    return;
  }
  const std::vector<BuiltTable> built = BuiltTables(runs);
  TreeRuns census = CensusOf(runs);
  if (options.per_level.access_aware) census.traffic = SummaryTraffic(runs, shares, exposures);
  host.SetOn(&census);
  const auto tree = std::make_shared<const TreeRuns>(AsBuilt(std::move(census), built));
  const std::vector<TableAgainstPlan> tables =
      TablesAgainstPlan(options, tree, nullptr, nullptr, host, built);
  std::map<int, bool> under_way;
  for (const auto& [level, move] : moves) under_way[level] = move.first;
  TreeBits bits;
  std::vector<TableRebuild> gains = FpRebuildGains(options, *tree, tables, under_way, &bits);
  absl::PrintF(
      "\n%s's plan: %.3f MiB of filters for the tables it weighs (below L0%s), which hold %.3f "
      "MiB (%.3fx)\n"
      "tables off that plan (bits/key more than %s from its, or a filter it drops or gives), "
      "their level moving enough: %d of the %d weighed\n",
      FormatPolicyId(options), bits.budget / 8 / kBytesPerMib,
      options.per_level.access_aware ? ", and L0's" : "", bits.built / 8 / kBytesPerMib,
      bits.budget > 0 ? bits.built / bits.budget : 0.0,
      options.per_level.access_aware
          ? absl::StrFormat("%.2f-%.2f, the fewer the more sampled Gets its share rests on",
                            kOffPlanBits, kRangeOffPlanBits)
          : absl::StrFormat("%.2f", kOffPlanBits),
      gains.size(), tables.size());
  if (gains.empty()) return;
  if (RebuildBytesPerSecond(options) <= 0) {
    absl::PrintF("  the census's rebuild loop rewrites none (rebuild_mb_s:0)\n");
    return;
  }
  gains = RebuildsWithinBudget(std::move(gains), std::numeric_limits<double>::max(), bits);
  absl::PrintF(
      "  the census's rebuild loop rewrites %d of them in this order (those that add bits each "
      "once the DB serves enough Gets a second to pay for it within %d s):\n",
      gains.size(), static_cast<int>(kPaybackHorizon.count()));
  for (size_t i = 0; i < std::min(gains.size(), kListed); ++i) {
    const TableRebuild& g = gains[i];
    absl::PrintF("  %s: %s %.1f KiB of filters, %s %.5f reads per Get, rewrites %.1f MiB\n",
                 RewriteHead(g), AddedBits(g) > 0 ? "adds" : "frees",
                 std::abs(AddedBits(g)) / 8 / 1024, g.saving >= 0 ? "saves" : "adds",
                 std::abs(g.saving), g.cost_bytes / kBytesPerMib);
  }
  if (gains.size() > kListed) absl::PrintF("  ... and %d more\n", gains.size() - kListed);
}

}  // namespace sstfilter
