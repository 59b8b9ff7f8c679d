#include "table/rocksdb/level_census.h"

#include <algorithm>

#include "rocksdb/db.h"
#include "rocksdb/metadata.h"
#include "rocksdb/comparator.h"
#include "rocksdb/options.h"
#include "filter/run_reach.h"

namespace sstfilter {

namespace {

template <typename T>
void Grow(std::vector<T>* v, size_t index) {
  if (v->size() <= index) v->resize(index + 1, T{});
}

// One column family's tables' key ranges, by run.
struct RunRanges {
  std::vector<std::vector<KeyRange>> l0_tables;
  std::vector<std::vector<KeyRange>> levels;  // Index = level.
};

// Fills runs' reach from their ranges: against the run with the most keys,
// or 1 everywhere when the keys are not ordered bytewise.
void SetReach(const RunRanges& ranges, bool bytewise, TreeRuns* runs) {
  const std::vector<KeyRange>* reference = nullptr;
  uint64_t most = 0;
  auto consider = [&](const std::vector<KeyRange>& run) {
    uint64_t keys = 0;
    for (const KeyRange& r : run) keys += r.keys;
    if (keys > most) most = keys, reference = &run;
    if (!RangesOrderedBytewise(run)) bytewise = false;
  };
  for (const auto& run : ranges.l0_tables) consider(run);
  for (const auto& run : ranges.levels) consider(run);
  auto reach = [&](const std::vector<KeyRange>& run) {
    return bytewise && reference != nullptr ? RunReach(run, *reference) : 1.0;
  };
  for (const auto& run : ranges.l0_tables) runs->l0_reach.push_back(reach(run));
  for (const auto& run : ranges.levels) runs->level_reach.push_back(reach(run));
}

bool IsBytewise(rocksdb::DB* db) {
  const rocksdb::Comparator* cmp = db->GetOptions().comparator;
  return cmp == nullptr || std::string(cmp->Name()) == "leveldb.BytewiseComparator";
}

}  // namespace

LevelCensus& LevelCensus::Instance() {
  static auto* census = new LevelCensus();
  return *census;
}

std::optional<TreeRuns> LevelCensus::Find(const void* db, const std::string& column_family) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = runs_.find({db, column_family});
  if (it == runs_.end()) return std::nullopt;
  return it->second;
}

void LevelCensus::Publish(const void* db, std::map<std::string, TreeRuns> by_column_family) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = runs_.begin(); it != runs_.end();) {
    it = it->first.first == db ? runs_.erase(it) : std::next(it);
  }
  for (auto& [column_family, runs] : by_column_family) {
    runs.version = next_version_++;
    runs_[{db, column_family}] = std::move(runs);
  }
}

void LevelCensus::Forget(const void* db) { Publish(db, {}); }

const void* CensusKeyOf(rocksdb::DB* db) { return db->GetDBOptions().info_log.get(); }

LevelCensusListener::~LevelCensusListener() {
  for (const void* db : published_) LevelCensus::Instance().Forget(db);
}

void LevelCensusListener::Refresh(rocksdb::DB* db) {
  const void* key = CensusKeyOf(db);
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  std::map<std::string, TreeRuns> by_column_family;
  std::map<std::string, RunRanges> ranges;
  // Each live table's range and entries, by (column family, file number).
  std::map<std::pair<std::string, uint64_t>, KeyRange> tables;
  for (const rocksdb::LiveFileMetaData& f : files) {
    TreeRuns& runs = by_column_family[f.column_family_name];
    RunRanges& run_ranges = ranges[f.column_family_name];
    const KeyRange range{f.smallestkey, f.largestkey, f.num_entries};
    const auto level = static_cast<size_t>(std::max(f.level, 0));
    if (level == 0) {
      runs.l0_tables.push_back(f.num_entries);
      run_ranges.l0_tables.push_back({range});
    } else {
      Grow(&runs.levels, level);
      runs.levels[level] += f.num_entries;
      Grow(&run_ranges.levels, level);
      run_ranges.levels[level].push_back(range);
    }
    tables[{f.column_family_name, f.file_number}] = range;
  }
  const bool bytewise = IsBytewise(db);
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [job, info] : running_) {
    if (job.first != key) continue;
    TreeRuns& runs = by_column_family[info.cf_name];
    const auto output = static_cast<size_t>(std::max(info.output_level, 0));
    Grow(&runs.incoming, output);
    Grow(&ranges[info.cf_name].levels, output);
    for (const rocksdb::CompactionFileInfo& input : info.input_file_infos) {
      if (input.level >= info.output_level) continue;
      const auto it = tables.find({info.cf_name, input.file_number});
      if (it == tables.end()) continue;
      runs.incoming[output] += it->second.keys;
      // The output level will cover the inputs' ranges: its tables being
      // written are reached there.
      ranges[info.cf_name].levels[output].push_back({it->second.smallest, it->second.largest, 0});
    }
  }
  for (auto& [column_family, runs] : by_column_family) {
    SetReach(ranges[column_family], bytewise, &runs);
  }
  LevelCensus::Instance().Publish(key, std::move(by_column_family));
  if (std::find(published_.begin(), published_.end(), key) == published_.end()) {
    published_.push_back(key);
  }
}

void LevelCensusListener::OnFlushBegin(rocksdb::DB* db, const rocksdb::FlushJobInfo&) {
  Refresh(db);
}

void LevelCensusListener::OnFlushCompleted(rocksdb::DB* db, const rocksdb::FlushJobInfo&) {
  Refresh(db);
}

void LevelCensusListener::OnCompactionBegin(rocksdb::DB* db,
                                            const rocksdb::CompactionJobInfo& info) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    running_[{CensusKeyOf(db), info.job_id}] = info;
  }
  Refresh(db);
}

void LevelCensusListener::OnCompactionCompleted(rocksdb::DB* db,
                                                const rocksdb::CompactionJobInfo& info) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    running_.erase({CensusKeyOf(db), info.job_id});
  }
  Refresh(db);
}

void LevelCensusListener::OnExternalFileIngested(rocksdb::DB* db,
                                                 const rocksdb::ExternalFileIngestionInfo&) {
  Refresh(db);
}

std::shared_ptr<rocksdb::EventListener> NewLevelCensusListener() {
  return std::make_shared<LevelCensusListener>();
}

}  // namespace sstfilter
