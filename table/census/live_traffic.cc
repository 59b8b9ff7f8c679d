#include "table/census/live_traffic.h"

#include <algorithm>

namespace sstfilter {

namespace {

double ReachOf(const std::map<std::string, TreeReach>& reach, const std::string& column_family,
               const rocksdb::LiveFileMetaData& f) {
  const auto it = reach.find(column_family);
  if (it == reach.end()) return 1;
  if (f.level <= 0) {
    const auto l0 = it->second.l0_tables.find(f.file_number);
    return l0 == it->second.l0_tables.end() ? 1 : l0->second;
  }
  const auto level = static_cast<size_t>(f.level);
  return level < it->second.levels.size() ? it->second.levels[level] : 1;
}

// Shares for one group of tables (a level's, or L0's) from their counts,
// shrunk toward the prior the group's own spread fits.
void SetShares(const std::vector<TableSamples>& counts, std::vector<TableTraffic>* tables) {
  std::vector<double> uniform;
  for (const TableTraffic& t : *tables) uniform.push_back(t.uniform);
  const SharePrior prior = FitSharePrior(counts, uniform);
  for (size_t i = 0; i < tables->size(); ++i) {
    TableTraffic& t = (*tables)[i];
    t.share = ShareOfGets(counts[i], t.uniform, prior);
    t.evidence = counts[i].exposure * t.uniform;
    t.sampled = counts[i].samples;
  }
}

}  // namespace

std::map<std::string, TreeTraffic> MeasureTraffic(
    const std::vector<rocksdb::LiveFileMetaData>& files, const ReadSamples& samples,
    const std::map<uint64_t, uint64_t>& entries, const std::map<std::string, TreeReach>& reach) {
  auto keys_of = [&](const rocksdb::LiveFileMetaData& f) -> uint64_t {
    const auto it = entries.find(f.file_number);
    return it == entries.end() ? 0 : it->second;
  };
  // Each column family's entries per level (index = level; [0] unused).
  std::map<std::string, std::vector<double>> level_keys;
  for (const rocksdb::LiveFileMetaData& f : files) {
    std::vector<double>& keys = level_keys[f.column_family_name];
    if (keys.size() <= static_cast<size_t>(std::max(f.level, 0))) keys.resize(f.level + 1);
    if (f.level > 0) keys[f.level] += static_cast<double>(keys_of(f));
  }
  // The tables by column family and level (index 0: L0), and their counts.
  std::map<std::string, std::vector<std::vector<TableTraffic>>> tables;
  std::map<std::string, std::vector<std::vector<TableSamples>>> counts;
  for (const rocksdb::LiveFileMetaData& f : files) {
    const uint64_t keys = keys_of(f);
    if (keys == 0) continue;
    const double run_keys = f.level > 0 ? level_keys[f.column_family_name][f.level] : keys;
    TableTraffic table{f.file_number, KeyRange{f.smallestkey, f.largestkey, keys}, 0, 0, 0};
    table.uniform = std::max(
        UniformShare(ReachOf(reach, f.column_family_name, f), static_cast<double>(keys), run_keys),
        1e-9);
    const auto seen = samples.tables().find(f.file_number);
    const auto level = static_cast<size_t>(std::max(f.level, 0));
    auto& level_tables = tables[f.column_family_name];
    auto& level_counts = counts[f.column_family_name];
    if (level_tables.size() <= level) {
      level_tables.resize(level + 1), level_counts.resize(level + 1);
    }
    level_tables[level].push_back(std::move(table));
    level_counts[level].push_back(seen == samples.tables().end() ? TableSamples{} : seen->second);
  }
  std::map<std::string, TreeTraffic> traffic;
  for (auto& [column_family, levels] : tables) {
    TreeTraffic& t = traffic[column_family];
    t.gets = samples.Gets(column_family);
    for (size_t level = 0; level < levels.size(); ++level) {
      SetShares(counts[column_family][level], &levels[level]);
    }
    t.l0 = std::move(levels[0]);
    t.levels = std::move(levels);
    t.levels[0].clear();
    for (std::vector<TableTraffic>& level : t.levels) {
      std::sort(level.begin(), level.end(), [](const TableTraffic& a, const TableTraffic& b) {
        return a.range.smallest < b.range.smallest;
      });
    }
  }
  return traffic;
}

}  // namespace sstfilter
