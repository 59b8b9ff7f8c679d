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

}  // namespace sstfilter::db_bench
