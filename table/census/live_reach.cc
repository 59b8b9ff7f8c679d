#include "table/census/live_reach.h"

#include "filter/allocation/run_reach.h"

namespace sstfilter {

namespace {

// One column family's tables' key ranges, by the run they will be in.
struct RunRanges {
  std::map<uint64_t, std::vector<KeyRange>> l0_tables;  // By file number.
  std::vector<KeyRange> l0_output;
  std::vector<std::vector<KeyRange>> levels;  // Index = level.
};

TreeReach ReachOf(const RunRanges& runs, bool bytewise) {
  std::vector<std::vector<KeyRange>> all;  // L0 tables by number, L0 output, levels.
  for (const auto& [number, ranges] : runs.l0_tables) all.push_back(ranges);
  all.push_back(runs.l0_output);
  all.insert(all.end(), runs.levels.begin(), runs.levels.end());
  const std::vector<double> reach = TreeReaches(all, bytewise);
  TreeReach out;
  auto next = reach.begin();
  for (const auto& [number, ranges] : runs.l0_tables) out.l0_tables[number] = *next++;
  if (!runs.l0_output.empty()) out.l0_output = *next;
  ++next;
  for (const auto& ranges : runs.levels) {
    out.levels.push_back(ranges.empty() ? 1.0 : *next);
    ++next;
  }
  return out;
}

}  // namespace

std::map<std::string, TreeReach> MeasureReach(const std::vector<rocksdb::LiveFileMetaData>& files,
                                              const std::map<std::string, RunningInputs>& running,
                                              const std::map<uint64_t, uint64_t>& entries,
                                              bool bytewise) {
  std::map<std::string, RunRanges> by_column_family;
  for (const rocksdb::LiveFileMetaData& f : files) {
    RunRanges& runs = by_column_family[f.column_family_name];
    const auto known = entries.find(f.file_number);
    const KeyRange range{f.smallestkey, f.largestkey, known == entries.end() ? 0 : known->second};
    int level = f.level;
    if (const auto inputs = running.find(f.column_family_name); inputs != running.end()) {
      if (const auto input = inputs->second.find(f.file_number); input != inputs->second.end()) {
        level = input->second;
        if (level <= 0) {
          runs.l0_output.push_back(range);
          continue;
        }
      }
    }
    if (level <= 0) {
      runs.l0_tables[f.file_number].push_back(range);
      continue;
    }
    if (runs.levels.size() <= static_cast<size_t>(level)) runs.levels.resize(level + 1);
    runs.levels[level].push_back(range);
  }
  std::map<std::string, TreeReach> reach;
  for (const auto& [column_family, runs] : by_column_family) {
    reach[column_family] = ReachOf(runs, bytewise);
  }
  return reach;
}

}  // namespace sstfilter
