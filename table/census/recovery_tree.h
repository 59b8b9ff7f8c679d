// The tree of a DB that is being opened, for the table its WAL recovery
// flush builds (TableFileCreationReason::kRecovery) inside DB::Open, before
// the DB object exists and before any flush or compaction event has given
// the level census a tree (census_listener.h).
//
// It is read from the DB's MANIFEST through a secondary instance
// (DB::OpenAsSecondary: made for reading beside the instance that writes),
// opened with RocksDB's default options (bytewise keys), no info log, a
// small table cache and the write-ahead log hidden from it, so it reads the
// table list and not the WAL the flush is writing out. Running compactions:
// none yet. A DB it cannot open this way (another comparator, say) gets no
// tree: the recovery table then has the uniform setting.
#ifndef SSTFILTER_TABLE_CENSUS_RECOVERY_TREE_H_
#define SSTFILTER_TABLE_CENSUS_RECOVERY_TREE_H_

#include <memory>
#include <string>

#include "filter/allocation/tree_runs.h"  // TreeRuns

namespace sstfilter {

// The runs of `column_family` of the DB at `db_path`; an empty tree if it
// has no table; nullptr if it cannot be read.
std::shared_ptr<const TreeRuns> ReadRecoveryTree(const std::string& db_path,
                                                 const std::string& column_family);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_RECOVERY_TREE_H_
