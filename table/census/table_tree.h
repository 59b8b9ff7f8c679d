// The tree a table being built is sized for: the one the census listener
// handed over for its job on this thread (census_handoff.h), or else the
// census's latest for its DB and column family (census_registry.h).
#ifndef SSTFILTER_TABLE_CENSUS_TABLE_TREE_H_
#define SSTFILTER_TABLE_CENSUS_TABLE_TREE_H_

#include <memory>
#include <string>

#include "filter/allocation/tree_runs.h"

namespace sstfilter {

// `db` is the DB's census key (CensusKeyOf: its info_log, which
// FilterBuildingContext carries). nullptr when the census has no tree for
// it (no LevelCensusListener, or a recovery flush whose DB could not be
// read).
std::shared_ptr<const TreeRuns> TreeForTable(const void* db, const std::string& column_family);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_TABLE_TREE_H_
