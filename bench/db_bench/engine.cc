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

namespace {

// `now` less `before`, level by level (levels only gain counts, and a
// level not read before has none).
template <typename Count>
std::vector<Count> LevelsSince(const std::vector<Count>& now, const std::vector<Count>& before) {
  std::vector<Count> d = now;
  for (size_t i = 0; i < before.size() && i < d.size(); ++i) d[i] = now[i] - before[i];
  return d;
}

}  // namespace

EngineCounters EngineCounters::Since(const EngineCounters& before) const {
  EngineCounters d;
  d.filter = filter - before.filter;
  d.filter_by_level = LevelsSince(filter_by_level, before.filter_by_level);
  d.block_misses_by_level = LevelsSince(block_misses_by_level, before.block_misses_by_level);
  d.data_block_reads = data_block_reads - before.data_block_reads;
  d.filter_block_reads = filter_block_reads - before.filter_block_reads;
  d.index_block_reads = index_block_reads - before.index_block_reads;
  return d;
}

}  // namespace sstfilter::db_bench
