// sstfilter_db_bench's RocksDB engine (--engine=rocksdb): a DB with a
// block-based table, the policy from a RocksDB filter_policy string and an
// LRU block cache. Filter counters are RocksDB's statistics tickers
// (BLOOM_FILTER_USEFUL, BLOOM_FILTER_FULL_POSITIVE, ..._TRUE_POSITIVE);
// data-block reads are each reader thread's PerfContext block reads minus
// its index and filter block reads.
#ifndef SSTFILTER_BENCH_DB_BENCH_ROCKSDB_ENGINE_H_
#define SSTFILTER_BENCH_DB_BENCH_ROCKSDB_ENGINE_H_

#include <memory>
#include <string_view>

#include "absl/status/statusor.h"
#include "bench/db_bench/engine.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"

namespace sstfilter::db_bench {

// Resolves options.filter strictly: an unknown or malformed id is an error
// (RocksDB's lenient parsing would silently run without a filter), and so is
// LevelDB's "leveldb:<bits>". `env` is the Env the DB runs on (nullptr: the
// default one); tests pass one that fails. It must outlive the engine.
absl::StatusOr<std::unique_ptr<Engine>> OpenRocksDbEngine(const EngineOptions& options,
                                                          rocksdb::Env* env = nullptr);

// The compression --compression_type names, or InvalidArgument naming it.
absl::StatusOr<rocksdb::CompressionType> CompressionNamed(std::string_view name);

// The compaction style LsmShape::compaction_style names ("level",
// "universal", "fifo"), or InvalidArgument naming it.
absl::StatusOr<rocksdb::CompactionStyle> CompactionStyleNamed(std::string_view name);

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_ROCKSDB_ENGINE_H_
