// Console output of the micro benchmarks plus, after the last run, a summary
// table: ns per key of every filter implementation per case, with the ratio
// to the reference implementation; the same cases as time / RocksDB's
// FastLocalBloom for every implementation (Ribbon's cost beside it), or for
// the ViaLevelDB cases as time / libleveldb; and the
// speed targets read off those numbers (the reference's, then each other
// encoding of ours against FastLocalBloom and, where declared, Ribbon: the
// targets speed_targets.h declares for that encoding, or "no target").
//
// Benchmarks are named "<case>/<implementation>"; the reporter groups on that.
// A case run more than once (interleaved rounds, --benchmark_repetitions)
// counts with its fastest run; its ratio to FastLocalBloom is then the
// median of the ratios of runs paired in order (round r against round r),
// which run back to back and so share the machine's state: on a shared
// machine that is steadier than the ratio of two fastest runs.
#ifndef SSTFILTER_BENCH_RATIO_REPORTER_H_
#define SSTFILTER_BENCH_RATIO_REPORTER_H_

#include <map>
#include <string>
#include <vector>

#include "bench/speed_targets.h"
#include "benchmark/benchmark.h"

namespace sstfilter::bench {

// Counters the benchmarks set and the summary reads.
inline constexpr char kPerKeyCounter[] = "per_key";      // Seconds of CPU per key.
inline constexpr char kMatchCounter[] = "match";         // Fraction answered "may match".
inline constexpr char kBitsPerKeyCounter[] = "bits/key";  // Filter size (build cases).

// Sets kPerKeyCounter and kMatchCounter of a case that asks
// keys_per_iteration keys per iteration, `matches` of them answered "may
// match" over all iterations.
inline void SetPerKey(benchmark::State& state, size_t keys_per_iteration, size_t matches) {
  const double keys = static_cast<double>(state.iterations()) * keys_per_iteration;
  state.counters[kPerKeyCounter] = benchmark::Counter(
      keys, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters[kMatchCounter] = benchmark::Counter(keys > 0 ? matches / keys : 0);
}
// Names of the cases through RocksDB's reader start so (via_rocksdb_cases.h).
inline constexpr char kViaRocksDbPrefix[] = "ViaRocksDB/";
// ...and of the cases through LevelDB's FilterPolicy (via_leveldb_cases.h),
// whose ratios are to libleveldb, not FastLocalBloom.
inline constexpr char kViaLevelDbPrefix[] = "ViaLevelDB/";

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  // implementations: column order, reference first. header: a line describing the setup.
  // Colours only on a terminal.
  RatioReporter(std::vector<std::string> impls, std::string header);

  void ReportRuns(const std::vector<Run>& reports) override;
  void Finalize() override;

 private:
  struct Cell {
    double ns_per_key = 0;  // Of the fastest run.
    double match = -1;
    double bits_per_key = -1;
    std::vector<double> runs_ns;  // ns/key of every run, in run order.
  };
  // ns/key of one case and implementation, or 0 when that run did not happen.
  double NsPerKey(const std::string& case_name, const std::string& impl) const;
  // ns/key of every run of one case and implementation, in run order.
  std::vector<double> Runs(const std::string& case_name, const std::string& impl) const;
  void PrintTable() const;
  // Time / peer of the cases whose name starts with prefix (only_prefix) or
  // does not (!only_prefix).
  void PrintRatiosTo(const std::string& peer, const std::string& prefix, bool only_prefix) const;
  void PrintTargets() const;
  // targets: those declared for ours (speed_targets.h), or nullptr: none.
  void PrintVersusFastLocalBloom(const std::string& ours, const SpeedTargets* targets) const;
  void PrintFasterThan(const std::string& ours, const std::string& peer) const;

  std::vector<std::string> impls_;
  std::string header_;
  std::vector<std::string> cases_;  // In first-run order.
  std::map<std::string, std::map<std::string, Cell>> cells_;
};

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_RATIO_REPORTER_H_
