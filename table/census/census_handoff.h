// Hands the tree a table is sized for from the level census listener to the
// policy on the thread that builds the table.
//
// RocksDB announces each table it is about to build to the DB's listeners
// (OnTableFileCreationStarted: its job id and reason) on the thread that
// then creates its builder, and so calls the filter policy, for flushes,
// compactions (each subcompaction on its own thread) and the WAL recovery
// flush inside DB::Open (RocksDB 7.8 to 11.x: BuildTable and
// CompactionJob::OpenCompactionOutputFile notify first). The listener hands
// over the tree it took for that job; the policy takes it when it creates
// the table's filter builder. Every table of a job is thus sized for the
// same tree, the one of the job's start, and the recovery flush gets a tree
// although no flush or compaction event has come yet.
#ifndef SSTFILTER_TABLE_CENSUS_CENSUS_HANDOFF_H_
#define SSTFILTER_TABLE_CENSUS_CENSUS_HANDOFF_H_

#include <memory>
#include <string>

#include "filter/allocation/tree_runs.h"

namespace sstfilter {

// Leaves `runs` for the next table this thread builds in `column_family`
// of the DB whose census key (CensusKeyOf) is `db`; nullptr: any DB (the
// recovery flush, before the DB object exists). Replaces what was left.
void HandOffTree(const void* db, const std::string& column_family,
                 std::shared_ptr<const TreeRuns> runs);

// What HandOffTree left on this thread, if it was for this DB's column
// family; empties it either way.
std::shared_ptr<const TreeRuns> TakeHandedOffTree(const void* db, const std::string& column_family);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_CENSUS_HANDOFF_H_
