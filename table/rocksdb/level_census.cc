#include "table/rocksdb/level_census.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "rocksdb/comparator.h"
#include "rocksdb/db.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/table_properties.h"
#include "table/rocksdb/census_handoff.h"
#include "table/rocksdb/recovery_tree.h"

namespace sstfilter {

namespace {

bool IsBytewise(rocksdb::DB* db) {
  const rocksdb::Comparator* cmp = db->GetOptions().comparator;
  return cmp == nullptr || std::string(cmp->Name()) == "leveldb.BytewiseComparator";
}

// The number of a table file "<dir>/000123.sst"; 0 if the name is not one.
uint64_t FileNumberOf(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const std::string name = path.substr(slash == std::string::npos ? 0 : slash + 1);
  char* end = nullptr;
  const unsigned long long number = std::strtoull(name.c_str(), &end, 10);
  return end != name.c_str() && std::string(end) == ".sst" ? number : 0;
}

}  // namespace

LevelCensus& LevelCensus::Instance() {
  static auto* census = new LevelCensus();
  return *census;
}

std::shared_ptr<const TreeRuns> LevelCensus::Find(const void* db,
                                                  const std::string& column_family) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = runs_.find({db, column_family});
  return it == runs_.end() ? nullptr : it->second;
}

std::map<std::string, std::shared_ptr<const TreeRuns>> LevelCensus::Publish(
    const void* db, std::map<std::string, TreeRuns> by_column_family) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = runs_.begin(); it != runs_.end();) {
    it = it->first.first == db ? runs_.erase(it) : std::next(it);
  }
  std::map<std::string, std::shared_ptr<const TreeRuns>> published;
  for (auto& [column_family, runs] : by_column_family) {
    runs.version = next_version_++;
    auto shared = std::make_shared<const TreeRuns>(std::move(runs));
    runs_[{db, column_family}] = shared;
    published[column_family] = std::move(shared);
  }
  return published;
}

void LevelCensus::Forget(const void* db) { Publish(db, {}); }

const void* CensusKeyOf(rocksdb::DB* db) { return db->GetDBOptions().info_log.get(); }

LevelCensusListener::~LevelCensusListener() {
  for (const void* db : published_) LevelCensus::Instance().Forget(db);
}

void LevelCensusListener::RecordUnseenTables(rocksdb::DB* db,
                                             const std::vector<rocksdb::LiveFileMetaData>& files) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    const std::map<uint64_t, TableRecord>& records = records_[db->GetName()];
    if (std::none_of(files.begin(), files.end(), [&](const rocksdb::LiveFileMetaData& f) {
          return f.column_family_name == rocksdb::kDefaultColumnFamilyName &&
                 records.count(f.file_number) == 0;
        })) {
      return;
    }
  }
  // Other column families' tables stay unseen: a listener has no handle to
  // ask for theirs.
  rocksdb::TablePropertiesCollection tables;
  if (!db->GetPropertiesOfAllTables(&tables).ok()) return;
  std::lock_guard<std::mutex> lock(mu_);
  std::map<uint64_t, TableRecord>& records = records_[db->GetName()];
  for (const auto& [path, props] : tables) {
    const uint64_t number = FileNumberOf(path);
    if (number != 0 && records.count(number) == 0) {
      records[number] = TableRecord{props->num_entries, 8 * props->filter_size};
    }
  }
}

std::map<std::string, std::shared_ptr<const TreeRuns>> LevelCensusListener::Refresh(
    rocksdb::DB* db) {
  const void* key = CensusKeyOf(db);
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  RecordUnseenTables(db, files);
  const bool bytewise = IsBytewise(db);
  std::lock_guard<std::mutex> lock(mu_);
  std::map<std::string, RunningInputs> running;
  for (const auto& [job, compaction] : running_) {
    if (job.first != db->GetName()) continue;
    for (uint64_t input : compaction.inputs) {
      running[compaction.column_family][input] = compaction.output_level;
    }
  }
  auto published = LevelCensus::Instance().Publish(
      key, FutureTrees(files, running, records_[db->GetName()], bytewise));
  if (std::find(published_.begin(), published_.end(), key) == published_.end()) {
    published_.push_back(key);
  }
  return published;
}

void LevelCensusListener::StartJob(rocksdb::DB* db, const std::string& column_family, int job_id) {
  auto published = Refresh(db);
  std::shared_ptr<const TreeRuns>& runs = published[column_family];
  if (runs == nullptr) runs = std::make_shared<const TreeRuns>();  // No table yet.
  std::lock_guard<std::mutex> lock(mu_);
  jobs_[{db->GetName(), column_family, job_id}] = JobTree{CensusKeyOf(db), runs};
}

void LevelCensusListener::OnFlushBegin(rocksdb::DB* db, const rocksdb::FlushJobInfo& info) {
  StartJob(db, info.cf_name, info.job_id);
}

void LevelCensusListener::OnFlushCompleted(rocksdb::DB* db, const rocksdb::FlushJobInfo& info) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    jobs_.erase({db->GetName(), info.cf_name, info.job_id});
  }
  Refresh(db);
}

void LevelCensusListener::OnCompactionBegin(rocksdb::DB* db,
                                            const rocksdb::CompactionJobInfo& info) {
  {
    RunningCompaction compaction{info.cf_name, info.output_level, {}};
    for (const rocksdb::CompactionFileInfo& input : info.input_file_infos) {
      compaction.inputs.push_back(input.file_number);
    }
    std::lock_guard<std::mutex> lock(mu_);
    running_[{db->GetName(), info.job_id}] = std::move(compaction);
  }
  StartJob(db, info.cf_name, info.job_id);
}

void LevelCensusListener::OnCompactionCompleted(rocksdb::DB* db,
                                                const rocksdb::CompactionJobInfo& info) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    running_.erase({db->GetName(), info.job_id});
    jobs_.erase({db->GetName(), info.cf_name, info.job_id});
    // The inputs are gone, but for a trivial move's: its outputs are its
    // inputs, moved down with their filters.
    if (info.status.ok()) {
      std::map<uint64_t, TableRecord>& records = records_[db->GetName()];
      std::set<uint64_t> outputs;
      for (const rocksdb::CompactionFileInfo& output : info.output_file_infos) {
        outputs.insert(output.file_number);
      }
      for (const rocksdb::CompactionFileInfo& input : info.input_file_infos) {
        if (outputs.count(input.file_number) == 0) records.erase(input.file_number);
      }
    }
  }
  Refresh(db);
}

void LevelCensusListener::OnExternalFileIngested(rocksdb::DB* db,
                                                 const rocksdb::ExternalFileIngestionInfo&) {
  Refresh(db);
}

void LevelCensusListener::OnTableFileCreationStarted(
    const rocksdb::TableFileCreationBriefInfo& info) {
  if (info.reason == rocksdb::TableFileCreationReason::kRecovery) {
    HandOffTree(nullptr, info.cf_name, ReadRecoveryTree(info.db_name, info.cf_name));
    return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = jobs_.find({info.db_name, info.cf_name, info.job_id});
  if (it == jobs_.end()) {
    HandOffTree(nullptr, "", nullptr);  // Nothing for this table: the census then.
  } else {
    HandOffTree(it->second.census_key, info.cf_name, it->second.runs);
  }
}

void LevelCensusListener::OnTableFileCreated(const rocksdb::TableFileCreationInfo& info) {
  const uint64_t number = FileNumberOf(info.file_path);
  if (!info.status.ok() || number == 0) return;
  std::lock_guard<std::mutex> lock(mu_);
  records_[info.db_name][number] =
      TableRecord{info.table_properties.num_entries, 8 * info.table_properties.filter_size};
}

std::shared_ptr<rocksdb::EventListener> NewLevelCensusListener() {
  return std::make_shared<LevelCensusListener>();
}

}  // namespace sstfilter
