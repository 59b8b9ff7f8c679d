#include "table/rocksdb/level_census.h"

#include <algorithm>

#include "rocksdb/db.h"
#include "rocksdb/metadata.h"

namespace sstfilter {

namespace {

void Grow(std::vector<uint64_t>* v, size_t index) {
  if (v->size() <= index) v->resize(index + 1, 0);
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
  // Entries of each live table, by (column family, file number).
  std::map<std::pair<std::string, uint64_t>, uint64_t> entries;
  for (const rocksdb::LiveFileMetaData& f : files) {
    TreeRuns& runs = by_column_family[f.column_family_name];
    const auto level = static_cast<size_t>(std::max(f.level, 0));
    if (level == 0) {
      runs.l0_tables.push_back(f.num_entries);
    } else {
      Grow(&runs.levels, level);
      runs.levels[level] += f.num_entries;
    }
    entries[{f.column_family_name, f.file_number}] = f.num_entries;
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [job, info] : running_) {
    if (job.first != key) continue;
    TreeRuns& runs = by_column_family[info.cf_name];
    const auto output = static_cast<size_t>(std::max(info.output_level, 0));
    Grow(&runs.incoming, output);
    for (const rocksdb::CompactionFileInfo& input : info.input_file_infos) {
      if (input.level >= info.output_level) continue;
      const auto it = entries.find({info.cf_name, input.file_number});
      if (it != entries.end()) runs.incoming[output] += it->second;
    }
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
