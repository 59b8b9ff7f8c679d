// The process-wide census: the trees the census listener
// (census_listener.h) publishes for each open DB and column family, where
// the policy finds them (table_tree.h).
//
// A DB is keyed by its info_log (CensusKeyOf): the one object both the
// listener and the policy are given (the listener through
// DB::GetDBOptions, the policy through FilterBuildingContext::info_log).
// Two DBs that share one Logger and a column family name share a census:
// their filters are then sized for the two trees together (still within
// the budget over both).
#ifndef SSTFILTER_TABLE_CENSUS_CENSUS_REGISTRY_H_
#define SSTFILTER_TABLE_CENSUS_CENSUS_REGISTRY_H_

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "filter/allocation/tree_runs.h"
#include "filter/plan/cache_plan_memo.h"
#include "rocksdb/db.h"

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
  // Forgets the runs and the plans of `db`.
  void Forget(const void* db);

  // The cache-aware plans made for (db, column family)'s tables
  // (cache_plan_memo.h), kept until the census forgets the DB or its plans:
  // made on first use. nullptr where the census knows no tree of `db`.
  std::shared_ptr<CachePlanMemo> PlansOf(const void* db, const std::string& column_family);
  // Drops the plans of `db` (a new DB object there: another DB, or the
  // same one opened again, has no plan of its own yet).
  void ForgetPlans(const void* db);

 private:
  using Key = std::pair<const void*, std::string>;
  mutable std::mutex mu_;
  std::map<Key, std::shared_ptr<const TreeRuns>> runs_;
  std::map<Key, std::shared_ptr<CachePlanMemo>> plans_;
};

// The DB key the census uses for a DB: its info_log.
const void* CensusKeyOf(rocksdb::DB* db);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_CENSUS_REGISTRY_H_
