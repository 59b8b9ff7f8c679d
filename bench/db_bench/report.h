// Output of sstfilter_db_bench: db_bench's result lines, filter figures,
// the side-by-side comparison table and JSON.
#ifndef SSTFILTER_BENCH_DB_BENCH_REPORT_H_
#define SSTFILTER_BENCH_DB_BENCH_REPORT_H_

#include <string>
#include <vector>

#include "bench/db_bench/workload.h"
#include "nlohmann/json_fwd.hpp"

namespace sstfilter::db_bench {

// One filter's results, in benchmark order.
struct FilterRun {
  std::string filter;
  std::vector<BenchmarkResult> results;
};

// Exactly db_bench's line, e.g.
// "readmissing  :       0.828 micros/op 1207394 ops/sec 0.083 seconds 100000 operations; (0 of 100000 found)"
std::string ResultLine(const BenchmarkResult& result);

// "             : filter fp 0.96%, 0.010 data-block reads/op, 1.25 filter bytes/key",
// and for a read whose engine counts by level, a second line with the FP
// of each level's filters.
std::string FilterLine(const BenchmarkResult& result);

// Rows: benchmarks; per filter: micros/op, ratio to the first filter, and
// for reads the FP rate and data-block reads per op.
std::string CompareTable(const std::vector<FilterRun>& runs);

std::string ToJson(const std::vector<FilterRun>& runs, const WorkloadConfig& config);

// The parts of ToJson's document: one benchmark's figures, and the machine
// (the CPU, each encoding's kernels, the SIMD cap; filter/encodings.h).
nlohmann::json ResultJson(const BenchmarkResult& result);
nlohmann::json MachineJson();

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_REPORT_H_
