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
  void Forget(const void* db);

 private:
  mutable std::mutex mu_;
  std::map<std::pair<const void*, std::string>, std::shared_ptr<const TreeRuns>> runs_;
};

// The DB key the census uses for a DB: its info_log.
const void* CensusKeyOf(rocksdb::DB* db);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_CENSUS_REGISTRY_H_
