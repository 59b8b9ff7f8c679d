// Filter bytes in a LevelDB database's live tables, read from the table
// files themselves (LevelDB reports no filter sizes): the tables of the
// current version (the "leveldb.sstables" property), each one's filter block
// size from its metaindex (inspect/leveldb_table.h).
#ifndef SSTFILTER_BENCH_DB_BENCH_LEVELDB_FILTER_BYTES_H_
#define SSTFILTER_BENCH_DB_BENCH_LEVELDB_FILTER_BYTES_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "leveldb/db.h"

namespace sstfilter::db_bench {

// Sum of the filter block sizes of db's live tables in directory `path`. A
// table a concurrent compaction deleted after the listing is left out.
absl::StatusOr<uint64_t> LevelDbFilterBytes(leveldb::DB& db, const std::string& path);

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_LEVELDB_FILTER_BYTES_H_
