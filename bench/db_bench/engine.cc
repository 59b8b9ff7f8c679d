#include "bench/db_bench/engine.h"

#include "absl/strings/str_format.h"

namespace sstfilter::db_bench {

absl::StatusOr<EngineKind> ParseEngineKind(std::string_view name) {
  if (name == "rocksdb") return EngineKind::kRocksDb;
  if (name == "leveldb") return EngineKind::kLevelDb;
  return absl::InvalidArgumentError(
      absl::StrFormat("--engine=%s: expected rocksdb or leveldb", name));
}

const char* EngineName(EngineKind kind) {
  return kind == EngineKind::kLevelDb ? "leveldb" : "rocksdb";
}

EngineCounters EngineCounters::Since(const EngineCounters& before) const {
  EngineCounters d;
  d.filter = filter - before.filter;
  d.filter_by_level = filter_by_level;  // Levels only gain checks.
  for (size_t i = 0; i < before.filter_by_level.size() && i < d.filter_by_level.size(); ++i) {
    d.filter_by_level[i] = filter_by_level[i] - before.filter_by_level[i];
  }
  d.data_block_reads = data_block_reads - before.data_block_reads;
  d.filter_block_reads = filter_block_reads - before.filter_block_reads;
  d.index_block_reads = index_block_reads - before.index_block_reads;
  return d;
}

}  // namespace sstfilter::db_bench
