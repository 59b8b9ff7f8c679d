// A learning phase's end (the cache sweep's, the shapes'): the census's
// rebuild loop (table/census/rebuild_loop.h) has rewritten what the Gets
// taught it, and RocksDB's compactions those rewrites set off are done.
#ifndef SSTFILTER_BENCH_DB_BENCH_REBUILD_SETTLE_H_
#define SSTFILTER_BENCH_DB_BENCH_REBUILD_SETTLE_H_

#include <chrono>

#include "absl/status/status.h"
#include "bench/db_bench/workload.h"

namespace sstfilter::db_bench {

// Waits until the census has rewritten no table of `db` for `quiet` (or
// `limit` has passed), then for the DB's flushes and compactions.
absl::Status SettleRebuilds(BenchDb* db, std::chrono::seconds quiet, std::chrono::seconds limit);

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_REBUILD_SETTLE_H_
