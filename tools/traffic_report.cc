#include "tools/traffic_report.h"

#include <map>
#include <memory>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "filter/allocation/tree_projection.h"
#include "filter/allocation/tree_traffic.h"
#include "table/census/dir_file.h"

namespace sstfilter {

absl::StatusOr<std::optional<TrafficSummary>> ReadTrafficSummary(const std::string& dir) {
  const absl::StatusOr<std::string> text =
      ReadRegularFile(dir + "/" + kTrafficFileName, kMaxTrafficFileBytes);
  if (absl::IsNotFound(text.status())) return std::nullopt;
  if (!text.ok()) return text.status();
  absl::StatusOr<TrafficSummary> summary = ParseTrafficFile(*text);
  if (!summary.ok()) return summary.status();
  return *std::move(summary);
}

TableShare SharesOf(const std::vector<TreeRun>& runs, const TableShares& shares) {
  auto uniform = std::make_shared<std::map<uint64_t, double>>();
  bool named = false;
  for (const TreeRun& run : runs) {
    for (const TableFilters& t : run.tables) {
      named = named || shares.count(t.file_number) != 0;
      (*uniform)[t.file_number] = UniformShare(run.reach, static_cast<double>(t.keys),
                                               static_cast<double>(run.keys()));
    }
  }
  if (!named) return nullptr;
  return [shares, uniform](const TableFilters& t) {
    const auto it = shares.find(t.file_number);
    return it != shares.end() ? it->second : uniform->at(t.file_number);
  };
}

void PrintTraffic(const std::vector<TreeRun>& runs, const TableShares& shares) {
  const TableShare share = SharesOf(runs, shares);
  if (!share) {
    absl::PrintF("lookups: %s names none of these tables (written before them)\n",
                 kTrafficFileName);
    return;
  }
  std::map<int, double> by_level;
  for (const TreeRun& run : runs) {
    for (const TableFilters& t : run.tables) by_level[t.level] += share(t);
  }
  std::vector<std::string> levels;
  for (const auto& [level, gets] : by_level) {
    levels.push_back(absl::StrFormat("L%d %.1f%%", level, 100 * gets));
  }
  absl::PrintF("lookups sampled by RocksDB (%s): of the Gets, %s reach each level's tables\n",
               kTrafficFileName, absl::StrJoin(levels, ", "));
  std::vector<TableFilters> tables;
  for (const TreeRun& run : runs) tables.insert(tables.end(), run.tables.begin(), run.tables.end());
  const std::vector<RunToday> today = RunsToday(TablesAsRuns(std::move(tables), share));
  if (today.empty()) return;
  const TreeProjection p = ProjectOptimizeLevels(today);
  absl::PrintF(
      "by that traffic: today's filters %.4f data blocks per absent Get; access-aware "
      "(optimize_levels:access_aware) at these filter bytes %.4f, %.2fx fewer\n",
      p.reads_today, p.reads_same_bytes,
      p.reads_same_bytes > 0 ? p.reads_today / p.reads_same_bytes : 0);
  if (p.bytes_for_same_reads.has_value()) {
    absl::PrintF("access-aware at today's %.4f blocks per absent Get: %.3fx the filter bytes\n",
                 p.reads_today, *p.bytes_for_same_reads);
  }
}

}  // namespace sstfilter
