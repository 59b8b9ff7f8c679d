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
// (OnFlushCompleted, OnCompactionCompleted, OnExternalFileIngested).
//
// The listener and the policy meet here, in a process-wide census keyed by
// the DB's info_log (the one object both are given: the listener through
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
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rocksdb/listener.h"

namespace sstfilter {

// One column family's sorted runs.
struct TreeRuns {
  // Entries of each L0 table: each is a sorted run of its own.
  std::vector<uint64_t> l0_tables;
  // Entries of each level (index = level; [0] unused): one sorted run
  // each, under leveled and universal compaction alike.
  std::vector<uint64_t> levels;
  // Entries that running compactions are moving into each level from
  // the levels above it (index = level).
  std::vector<uint64_t> incoming;
  // Share of absent-key lookups that reach each L0 table and each level
  // (filter/run_reach.h; 1 where the keys are not in bytewise order).
  std::vector<double> l0_reach;
  std::vector<double> level_reach;
  // Changes whenever the census is refreshed (for caches of allocations).
  uint64_t version = 0;
};

// The process-wide census. Thread-safe.
class LevelCensus {
 public:
  static LevelCensus& Instance();

  // The runs last published for (db, column family), if any.
  std::optional<TreeRuns> Find(const void* db, const std::string& column_family) const;
  // Replaces everything known of `db` by `by_column_family`.
  void Publish(const void* db, std::map<std::string, TreeRuns> by_column_family);
  void Forget(const void* db);

 private:
  mutable std::mutex mu_;
  std::map<std::pair<const void*, std::string>, TreeRuns> runs_;
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

 private:
  // Reads the DB's live tables and publishes their runs and reach, with the
  // inputs of the running compactions (by job) counted as incoming to their
  // output levels.
  void Refresh(rocksdb::DB* db);

  std::mutex mu_;
  // Running compactions: (DB, job id) -> the CompactionJobInfo's inputs.
  std::map<std::pair<const void*, int>, rocksdb::CompactionJobInfo> running_;
  std::vector<const void*> published_;  // DBs to Forget when destroyed.
};

// A listener to add to DBOptions::listeners beside a policy with
// optimize_levels.
std::shared_ptr<rocksdb::EventListener> NewLevelCensusListener();

// The DB key the census uses for a DB: its info_log.
const void* CensusKeyOf(rocksdb::DB* db);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_ROCKSDB_LEVEL_CENSUS_H_
