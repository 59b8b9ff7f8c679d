// Named workloads of sstfilter_db_bench (--scenario): the defaults each sets.
// A flag given on the command line wins over its scenario's value.
//
//   memory  one sorted run (a final full compaction), data served from the
//           OS page cache: the filter's own speed, nothing else (the default)
//   disk    a tree of levels in steady state (L0 files present, no final
//           compaction), direct reads: a data block read is a device read,
//           so each false positive costs one
//   budget  disk, with filter and index blocks in a block cache smaller than
//           the working set: filter bytes compete with data blocks
//   cached  8M keys, partitioned filters and indexes in an 8 MB block cache
//           (high priority, top level pinned), direct reads: where filters
//           do not fit in the memory they share (cache_sweep.h sweeps the
//           cache size)
#ifndef SSTFILTER_BENCH_DB_BENCH_SCENARIO_H_
#define SSTFILTER_BENCH_DB_BENCH_SCENARIO_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "bench/db_bench/engine.h"

namespace sstfilter::db_bench {

// Unset fields leave the flag's own default.
struct Scenario {
  std::string_view name;
  std::optional<int64_t> num;
  std::optional<int64_t> reads;
  std::optional<int64_t> cache_size;
  std::optional<bool> final_compaction;
  std::optional<bool> use_direct_reads;
  std::optional<bool> cache_index_and_filter_blocks;
  std::optional<bool> partition_index_and_filters;
  std::optional<std::string> benchmarks;
  LsmShape shape;
};

// The defaults of --shapes (shape.h), which is not one of the named
// scenarios: 1.5M keys of 16 + 100 bytes, uncompressed, 2 MB memtables and
// files, an 8 MB base level growing 10x, direct reads, 200k absent-key Gets
// per measure point. Each shape sets its compaction style itself.
Scenario ShapesScenario();

// The scenario called `name`, or InvalidArgument listing the names.
absl::StatusOr<Scenario> FindScenario(std::string_view name);
// "memory, disk, budget or cached".
std::string ScenarioNames();

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_SCENARIO_H_
