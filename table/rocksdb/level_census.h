// The sorted runs of each column family of each open DB, for the per-level
// policy (optimize_levels, filter/level_allocation.h).
//
// RocksDB tells a filter policy a table's level (FilterBuildingContext) but
// not the sizes of the levels, which the allocation needs. A policy could
// assume them (a fixed growth per level), but real trees are not textbook
// ones: a young tree under level_compaction_dynamic_level_bytes=false fills
// L1 and L2 first, L0 swells after a write burst, universal compaction's
// runs have any sizes. It could count the tables it builds, but it never
// sees one deleted or moved down. So the sizes come from RocksDB's own
// metadata (DB::GetLiveFilesMetaData: every live table's level and entry
// count), read by an EventListener at each flush and compaction, before
// its tables are built (OnFlushBegin, OnCompactionBegin) and after
// (OnFlushCompleted, OnCompactionCompleted, OnExternalFileIngested), and
// shaped into the tree the running compactions leave (future_tree.h).
//
// Each flush or compaction job's tables are sized for the tree of the job's
// start, handed to the policy on the building thread (census_handoff.h);
// the WAL recovery flush at DB::Open, which comes before any of those
// events, reads the tree from the DB's files (recovery_tree.h). The listener
// also records each table's filter bits as RocksDB reports them
// (OnTableFileCreated), so the policy knows what the tables it is not
// rewriting hold and can keep the live tree within its budget.
//
// The listener and the policy meet in a process-wide census keyed by the
// DB's info_log (the one object both are given: the listener through
// DB::GetDBOptions, the policy through FilterBuildingContext::info_log) and
// the column family's name. Two DBs that share one Logger and a column
// family name share a census: their filters are then sized for the two
// trees together (still within the budget over both).
#ifndef SSTFILTER_TABLE_ROCKSDB_LEVEL_CENSUS_H_
#define SSTFILTER_TABLE_ROCKSDB_LEVEL_CENSUS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "rocksdb/listener.h"
#include "rocksdb/metadata.h"
#include "table/rocksdb/future_tree.h"

namespace sstfilter {

// The process-wide census. Thread-safe.
class LevelCensus {
 public:
  static LevelCensus& Instance();

  // The runs last published for (db, column family); nullptr if none.
  std::shared_ptr<const TreeRuns> Find(const void* db, const std::string& column_family) const;
  // Replaces everything known of `db` by `by_column_family`; returns what
  // it published.
  std::map<std::string, std::shared_ptr<const TreeRuns>> Publish(
      const void* db, std::map<std::string, TreeRuns> by_column_family);
  void Forget(const void* db);

 private:
  mutable std::mutex mu_;
  std::map<std::pair<const void*, std::string>, std::shared_ptr<const TreeRuns>> runs_;
  uint64_t next_version_ = 1;
};

// The listener that keeps the census. Its Name() is its id in RocksDB
// option strings (listeners=sstfilter.level_census, once
// EnsureRocksDbFilterPoliciesRegistered has run or the plugin is loaded).
class LevelCensusListener final : public rocksdb::EventListener {
 public:
  static const char* kClassName() { return "sstfilter.level_census"; }
  const char* Name() const override { return kClassName(); }
  ~LevelCensusListener() override;

  void OnFlushBegin(rocksdb::DB* db, const rocksdb::FlushJobInfo& info) override;
  void OnFlushCompleted(rocksdb::DB* db, const rocksdb::FlushJobInfo& info) override;
  void OnCompactionBegin(rocksdb::DB* db, const rocksdb::CompactionJobInfo& info) override;
  void OnCompactionCompleted(rocksdb::DB* db, const rocksdb::CompactionJobInfo& info) override;
  void OnExternalFileIngested(rocksdb::DB* db,
                              const rocksdb::ExternalFileIngestionInfo& info) override;
  void OnTableFileCreationStarted(const rocksdb::TableFileCreationBriefInfo& info) override;
  void OnTableFileCreated(const rocksdb::TableFileCreationInfo& info) override;

 private:
  // A running job, by (DB path, column family, job id).
  using JobKey = std::tuple<std::string, std::string, int>;
  // The tree a job's tables are sized for, and the census key of its DB.
  struct JobTree {
    const void* census_key = nullptr;
    std::shared_ptr<const TreeRuns> runs;
  };
  // A running compaction's inputs and where they go.
  struct RunningCompaction {
    std::string column_family;
    int output_level = 0;
    std::vector<uint64_t> inputs;  // File numbers.
  };

  // Reads the DB's live tables and publishes their runs as the running
  // compactions will leave them; returns what it published.
  std::map<std::string, std::shared_ptr<const TreeRuns>> Refresh(rocksdb::DB* db);
  // Records the filter bits of the default column family's live tables the
  // census has not seen built (a DB opened by this process: its tables
  // from before), from their table properties, once each.
  void RecordUnseenTables(rocksdb::DB* db, const std::vector<rocksdb::LiveFileMetaData>& files);
  // Refresh, and keeps the column family's tree for the job's tables.
  void StartJob(rocksdb::DB* db, const std::string& column_family, int job_id);

  std::mutex mu_;
  std::map<std::pair<std::string, int>, RunningCompaction> running_;  // (DB path, job id).
  std::map<std::string, std::map<uint64_t, TableRecord>> records_;    // DB path -> tables.
  std::map<JobKey, JobTree> jobs_;
  std::vector<const void*> published_;  // DBs to Forget when destroyed.
};

// A listener to add to DBOptions::listeners beside a policy with
// optimize_levels.
std::shared_ptr<rocksdb::EventListener> NewLevelCensusListener();

// The DB key the census uses for a DB: its info_log.
const void* CensusKeyOf(rocksdb::DB* db);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_ROCKSDB_LEVEL_CENSUS_H_
