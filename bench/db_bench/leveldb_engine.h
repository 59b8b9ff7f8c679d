// sstfilter_db_bench's LevelDB engine (--engine=leveldb, libleveldb 1.23):
// LevelDB's default options but for the policy and the block cache
// (--cache_size, LevelDB's own default 8 MB being the flag's default).
//
// Policies: "leveldb:<bits_per_key>" is LevelDB's built-in
// leveldb::NewBloomFilterPolicy, "sstfilter.bloom[:<bits>[:<encoding>]]" ours
// (NewLevelDbFilterPolicyFromString), "none" no filter; anything else (a
// RocksDB policy such as bloomfilter:10) is an error naming it.
//
// How the counters differ from the RocksDB engine's:
//   - Filter checks are counted by a wrapper around the policy
//     (leveldb_counting_policy.h), since LevelDB keeps no statistics. A true
//     positive is a Get that found its key after at least one positive on
//     its thread: LevelDB stops at the table holding the key, so that Get's
//     last positive was it (RocksDB's ticker knows it directly).
//   - Data-block reads are table-file reads made by the reader threads
//     (leveldb_counting_env.h): block cache misses. LevelDB opens tables
//     lazily: in a DB opened with --use_existing_db the first Get to reach a
//     table also reads its footer, index and filter (a few reads per table
//     file, counted here; RocksDB's figure subtracts index and filter
//     reads). Tables written in this process are opened when written.
//   - There is no MultiGet: SupportsMultiGet() is false.
#ifndef SSTFILTER_BENCH_DB_BENCH_LEVELDB_ENGINE_H_
#define SSTFILTER_BENCH_DB_BENCH_LEVELDB_ENGINE_H_

#include <memory>

#include "absl/status/statusor.h"
#include "bench/db_bench/engine.h"

namespace sstfilter::db_bench {

absl::StatusOr<std::unique_ptr<Engine>> OpenLevelDbEngine(const EngineOptions& options);

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_LEVELDB_ENGINE_H_
