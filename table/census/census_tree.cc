#include "table/census/census_tree.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "filter/filter_options.h"
#include "table/census/live_traffic.h"

namespace sstfilter {

namespace {

RunCensus& LevelRun(std::vector<RunCensus>* levels, int level) {
  if (levels->size() <= static_cast<size_t>(level)) levels->resize(level + 1);
  return (*levels)[level];
}

// Adds sign (+1 or -1) times a table's counts to `run`.
void Add(RunCensus* run, int sign, uint64_t keys, uint64_t fixed_keys, uint64_t bits) {
  const auto s = static_cast<uint64_t>(static_cast<int64_t>(sign));  // Wraps: -1 subtracts.
  run->keys += s * keys, run->tables += s;
  run->fixed_keys += s * fixed_keys, run->fixed_filter_bits += s * bits;
  if (fixed_keys > 0 && bits == 0) run->unfiltered_keys += s * fixed_keys;
}

void AddShape(const TableRecord& r, BlockShape* shape) {
  if (r.data_blocks == 0 || r.entries == 0) return;
  shape->entries += static_cast<double>(r.entries);
  shape->data_bytes += static_cast<double>(r.data_bytes);
  shape->data_blocks += static_cast<double>(r.data_blocks);
  shape->index_bytes += static_cast<double>(r.index_bytes);
  shape->index_blocks += static_cast<double>(r.index_blocks);
}

}  // namespace

TableRecord RecordOf(const rocksdb::TableProperties& props) {
  TableRecord r;
  r.entries = props.num_entries;
  r.filter_bits = 8 * props.filter_size;
  r.filter_entries = props.num_filter_entries;
  r.data_bytes = props.data_size, r.data_blocks = props.num_data_blocks;
  // A partitioned index's partitions (its top level is pinned), or the
  // whole index as one block.
  const bool partitioned = props.index_partitions > 0;
  r.index_bytes = partitioned && props.index_size > props.top_level_index_size
                      ? props.index_size - props.top_level_index_size
                      : props.index_size;
  r.index_blocks = partitioned ? props.index_partitions : 1;
  r.index_top_bytes = partitioned ? props.top_level_index_size : 0;
  // raw_key_size counts internal keys: a user key and its 8-byte footer.
  if (props.num_entries > 0) {
    const double key_bytes =
        static_cast<double>(props.raw_key_size) / static_cast<double>(props.num_entries);
    r.user_key_bytes = std::max(0.0, key_bytes - 8);
  }
  r.sstfilter_filter = props.filter_policy_name == kBloomPolicyName;
  return r;
}

uint64_t CensusTree::Mean::EntriesOf(uint64_t file_size) const {
  return entries > 0 ? static_cast<uint64_t>(static_cast<double>(file_size) * entries / bytes) : 0;
}

double CensusTree::BytesPerEntry(const std::string& column_family) const {
  const auto m = mean_.find(column_family);
  return m == mean_.end() || m->second.entries <= 0 ? 0 : m->second.bytes / m->second.entries;
}

void CensusTree::Count(uint64_t number, const Table& table, int sign, int output_level) {
  Counts& c = counts_[table.column_family];
  if (output_level >= 0) {
    Add(output_level == 0 ? &c.l0_output : &LevelRun(&c.levels, output_level), sign,
        table.entries, 0, 0);
    return;
  }
  const bool fixed = table.bits_known && pending_.count(number) == 0;
  const uint64_t fixed_keys = fixed ? table.entries : 0;
  const uint64_t bits = fixed ? table.filter_bits : 0;
  if (table.level > 0) {
    Add(&LevelRun(&c.levels, table.level), sign, table.entries, fixed_keys, bits);
  } else if (sign > 0) {
    c.l0_tables[number] = RunCensus{table.entries, 1, fixed_keys,
                                    bits,          1, fixed_keys > 0 && bits == 0 ? fixed_keys : 0};
  } else {
    c.l0_tables.erase(number);
  }
}

void CensusTree::SetPendingRewrites(std::set<uint64_t> pending) {
  std::vector<uint64_t> changed;
  std::set_symmetric_difference(pending_.begin(), pending_.end(), pending.begin(), pending.end(),
                                std::back_inserter(changed));
  // A running compaction's inputs are free already; other tables move
  // between fixed and free.
  auto recount = [&](int sign) {
    for (const uint64_t number : changed) {
      const auto t = tables_.find(number);
      if (t != tables_.end() && input_to_.count(number) == 0) Count(number, t->second, sign, -1);
    }
  };
  recount(-1);
  pending_ = std::move(pending);
  recount(+1);
}

void CensusTree::Rebuild(const std::vector<rocksdb::LiveFileMetaData>& files,
                         const std::map<int, Compaction>& running,
                         const std::map<uint64_t, TableRecord>& records, bool bytewise,
                         const ReadSamples* samples) {
  tables_.clear(), input_to_.clear(), counts_.clear(), mean_.clear(), traffic_.clear();
  shape_.clear();
  running_ = running;
  for (const rocksdb::LiveFileMetaData& f : files) {
    if (f.num_entries == 0) continue;
    Mean& m = mean_[f.column_family_name];
    m.bytes += static_cast<double>(f.size);
    m.entries += static_cast<double>(f.num_entries);
  }
  std::map<uint64_t, uint64_t> entries;
  for (const rocksdb::LiveFileMetaData& f : files) {
    Table t{f.column_family_name, f.level, f.num_entries, false, 0};
    const auto record = records.find(f.file_number);
    if (record != records.end()) {
      // Counted as its filter's entries, for which the filter was sized.
      if (record->second.filter_entries > 0 || t.entries == 0) {
        t.entries = record->second.KeysFiltered();
      }
      t.bits_known = true, t.filter_bits = record->second.filter_bits;
      AddShape(record->second, &shape_[f.column_family_name]);
    }
    if (t.entries == 0) {
      const auto m = mean_.find(f.column_family_name);
      if (m != mean_.end()) t.entries = m->second.EntriesOf(f.size);
    }
    entries[f.file_number] = t.entries;
    tables_[f.file_number] = std::move(t);
  }
  std::map<std::string, RunningInputs> inputs;
  for (const auto& [job, compaction] : running_) {
    for (uint64_t input : compaction.inputs) {
      if (tables_.count(input) == 0) continue;
      input_to_[input] = compaction.output_level;
      inputs[compaction.column_family][input] = compaction.output_level;
    }
  }
  for (const auto& [number, table] : tables_) {
    const auto input = input_to_.find(number);
    Count(number, table, +1, input == input_to_.end() ? -1 : input->second);
  }
  std::map<std::string, TreeReach> reach = MeasureReach(files, inputs, entries, bytewise);
  if (samples != nullptr && bytewise) {
    for (auto& [column_family, traffic] : MeasureTraffic(files, *samples, entries, reach)) {
      traffic_[column_family] = std::make_shared<const TreeTraffic>(std::move(traffic));
    }
  }
  for (auto& [column_family, r] : reach) counts_[column_family].reach = std::move(r);
}

bool CensusTree::AddTable(uint64_t number, Table table) {
  if (tables_.count(number) != 0) return false;
  if (table.entries > 0) last_flush_[table.column_family] = table.entries;
  return Insert(number, std::move(table));
}

bool CensusTree::Insert(uint64_t number, Table table) {
  if (tables_.count(number) != 0) return false;
  Count(number, table, +1, -1);
  tables_[number] = std::move(table);
  return true;
}

bool CensusTree::StartCompaction(int job, Compaction compaction) {
  if (running_.count(job) != 0) return false;
  for (uint64_t input : compaction.inputs) {
    if (tables_.count(input) == 0 || input_to_.count(input) != 0) return false;
  }
  for (uint64_t input : compaction.inputs) {
    const Table& table = tables_.at(input);
    Count(input, table, -1, -1);
    Count(input, table, +1, compaction.output_level);
    input_to_[input] = compaction.output_level;
  }
  running_[job] = std::move(compaction);
  return true;
}

bool CensusTree::FinishCompaction(int job, bool ok,
                                  const std::vector<std::pair<uint64_t, Table>>& outputs) {
  const auto it = running_.find(job);
  if (it == running_.end()) return false;
  bool in_step = true;
  std::map<uint64_t, Table> inputs;
  for (uint64_t input : it->second.inputs) {
    const auto found = tables_.find(input);
    if (found == tables_.end() || input_to_.count(input) == 0) {
      in_step = false;  // Gone since (a rebuild saw the tree without it).
      continue;
    }
    const Table table = found->second;
    Count(input, table, -1, it->second.output_level);
    input_to_.erase(input);
    if (!ok) {
      Count(input, table, +1, -1);  // Back where it was.
    } else {
      inputs[input] = table;
      tables_.erase(input);
    }
  }
  running_.erase(it);
  if (!ok) return in_step;
  for (auto [number, table] : outputs) {
    // A trivial move's table keeps what it was, at its new level.
    if (const auto moved = inputs.find(number); moved != inputs.end() && table.entries == 0) {
      const int level = table.level;
      table = moved->second;
      table.level = level;
    }
    in_step = Insert(number, std::move(table)) && in_step;
  }
  return in_step;
}

TreeRuns CensusTree::Runs(const std::string& column_family) const {
  TreeRuns runs;
  const auto it = counts_.find(column_family);
  if (it == counts_.end()) return runs;
  const Counts& c = it->second;
  for (const auto& [number, table] : c.l0_tables) {
    runs.l0_tables.push_back(table);
    const auto reach = c.reach.l0_tables.find(number);
    if (reach != c.reach.l0_tables.end()) runs.l0_tables.back().reach = reach->second;
  }
  if (c.l0_output.keys > 0) {
    runs.l0_tables.push_back(c.l0_output);
    runs.l0_tables.back().reach = c.reach.l0_output;
  }
  runs.levels = c.levels;
  if (const auto flush = last_flush_.find(column_family); flush != last_flush_.end()) {
    runs.last_flush_keys = flush->second;
  }
  if (const auto shape = shape_.find(column_family); shape != shape_.end()) {
    runs.blocks = shape->second;
  }
  if (const auto traffic = traffic_.find(column_family); traffic != traffic_.end()) {
    runs.traffic = traffic->second;
  }
  for (size_t level = 0; level < runs.levels.size(); ++level) {
    runs.levels[level].reach = level < c.reach.levels.size() ? c.reach.levels[level] : 1.0;
  }
  return runs;
}

bool CensusTree::ReachUnmeasured() const {
  for (const auto& [column_family, c] : counts_) {
    for (const auto& [number, table] : c.l0_tables) {
      if (c.reach.l0_tables.count(number) == 0) return true;
    }
  }
  return false;
}

std::map<uint64_t, double> CensusTree::KnownShares() const {
  std::map<uint64_t, double> shares;
  for (const auto& [column_family, traffic] : traffic_) {
    if (!traffic->known()) continue;
    for (const TableTraffic& t : traffic->l0) shares[t.file_number] = t.share;
    for (const std::vector<TableTraffic>& level : traffic->levels) {
      for (const TableTraffic& t : level) shares[t.file_number] = t.share;
    }
  }
  return shares;
}

std::map<std::string, TreeRuns> CensusTree::AllRuns() const {
  std::map<std::string, TreeRuns> all;
  for (const auto& [column_family, counts] : counts_) all[column_family] = Runs(column_family);
  return all;
}

}  // namespace sstfilter
