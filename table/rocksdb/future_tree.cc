#include "table/rocksdb/future_tree.h"

#include <algorithm>

#include "filter/run_reach.h"

namespace sstfilter {

namespace {

// One column family's tables, by the run they will be in.
struct Placed {
  std::vector<RunCensus> l0_tables;
  std::vector<std::vector<KeyRange>> l0_ranges;
  RunCensus l0_output;  // Compactions into L0 (universal, FIFO, intra-L0).
  std::vector<KeyRange> l0_output_ranges;
  std::vector<RunCensus> levels;
  std::vector<std::vector<KeyRange>> level_ranges;
};

template <typename T>
T& At(std::vector<T>* v, size_t index) {
  if (v->size() <= index) v->resize(index + 1);
  return (*v)[index];
}

// Entries of a table whose metadata and record have none, from its bytes.
struct BytesPerEntry {
  double bytes = 0, entries = 0;
  double Of(uint64_t file_size) const {
    return entries > 0 ? static_cast<double>(file_size) * entries / bytes : 0;
  }
};

uint64_t EntriesOf(const rocksdb::LiveFileMetaData& f, const std::map<uint64_t, TableRecord>& records,
                   const BytesPerEntry& estimate) {
  if (f.num_entries > 0) return f.num_entries;
  const auto it = records.find(f.file_number);
  if (it != records.end() && it->second.entries > 0) return it->second.entries;
  return static_cast<uint64_t>(estimate.Of(f.size));
}

std::map<std::string, BytesPerEntry> MeanBytesPerEntry(
    const std::vector<rocksdb::LiveFileMetaData>& files) {
  std::map<std::string, BytesPerEntry> mean;
  for (const rocksdb::LiveFileMetaData& f : files) {
    if (f.num_entries == 0) continue;
    BytesPerEntry& m = mean[f.column_family_name];
    m.bytes += static_cast<double>(f.size);
    m.entries += static_cast<double>(f.num_entries);
  }
  return mean;
}

void Place(const rocksdb::LiveFileMetaData& f, uint64_t entries, const TableRecord* record,
           const RunningInputs& running, Placed* placed) {
  const KeyRange range{f.smallestkey, f.largestkey, entries};
  const auto input = running.find(f.file_number);
  if (input != running.end()) {
    // Being compacted: its entries go to the output level, which will
    // cover its range.
    RunCensus& run = input->second <= 0 ? placed->l0_output : At(&placed->levels, input->second);
    run.keys += entries, run.tables += 1;
    (input->second <= 0 ? placed->l0_output_ranges : At(&placed->level_ranges, input->second))
        .push_back(range);
    return;
  }
  RunCensus table{entries, 1, 0, 0, 1};
  if (record != nullptr) table.fixed_keys = entries, table.fixed_filter_bits = record->filter_bits;
  if (f.level <= 0) {
    placed->l0_tables.push_back(table);
    placed->l0_ranges.push_back({range});
    return;
  }
  const auto level = static_cast<size_t>(f.level);
  RunCensus& run = At(&placed->levels, level);
  run.keys += table.keys, run.tables += 1, run.fixed_keys += table.fixed_keys;
  run.fixed_filter_bits += table.fixed_filter_bits;
  At(&placed->level_ranges, level).push_back(range);
}

// The runs, each with its reach against the run with the most keys (1
// everywhere when some run's ranges are not in bytewise order).
TreeRuns WithReach(Placed p, bool bytewise) {
  if (p.l0_output.keys > 0) {
    p.l0_tables.push_back(p.l0_output);
    p.l0_ranges.push_back(std::move(p.l0_output_ranges));
  }
  p.level_ranges.resize(p.levels.size());
  const std::vector<KeyRange>* reference = nullptr;
  uint64_t most = 0;
  auto consider = [&](const RunCensus& run, const std::vector<KeyRange>& ranges) {
    if (run.keys > most) most = run.keys, reference = &ranges;
    if (!RangesOrderedBytewise(ranges)) bytewise = false;
  };
  for (size_t i = 0; i < p.l0_tables.size(); ++i) consider(p.l0_tables[i], p.l0_ranges[i]);
  for (size_t i = 0; i < p.levels.size(); ++i) consider(p.levels[i], p.level_ranges[i]);
  auto reach = [&](const std::vector<KeyRange>& ranges) {
    return bytewise && reference != nullptr ? RunReach(ranges, *reference) : 1.0;
  };
  for (size_t i = 0; i < p.l0_tables.size(); ++i) p.l0_tables[i].reach = reach(p.l0_ranges[i]);
  for (size_t i = 0; i < p.levels.size(); ++i) p.levels[i].reach = reach(p.level_ranges[i]);
  TreeRuns runs;
  runs.l0_tables = std::move(p.l0_tables);
  runs.levels = std::move(p.levels);
  return runs;
}

}  // namespace

std::map<std::string, TreeRuns> FutureTrees(const std::vector<rocksdb::LiveFileMetaData>& files,
                                            const std::map<std::string, RunningInputs>& running,
                                            const std::map<uint64_t, TableRecord>& records,
                                            bool bytewise) {
  const std::map<std::string, BytesPerEntry> mean = MeanBytesPerEntry(files);
  const RunningInputs none;
  std::map<std::string, Placed> placed;
  for (const rocksdb::LiveFileMetaData& f : files) {
    const auto inputs = running.find(f.column_family_name);
    const auto record = records.find(f.file_number);
    const auto estimate = mean.find(f.column_family_name);
    Place(f, EntriesOf(f, records, estimate == mean.end() ? BytesPerEntry{} : estimate->second),
          record == records.end() ? nullptr : &record->second,
          inputs == running.end() ? none : inputs->second, &placed[f.column_family_name]);
  }
  std::map<std::string, TreeRuns> trees;
  for (auto& [column_family, p] : placed) trees[column_family] = WithReach(std::move(p), bytewise);
  return trees;
}

}  // namespace sstfilter
