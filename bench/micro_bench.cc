// sstfilter_micro_bench: every filter implementation (filter_impls.h), built from the
// same keys, timed per key:
//   Build                      one filter of --in_cache_keys keys
//   InCache/{present,absent}   single queries against that one filter
//   InCache/batchB/{loop,batched}
//                              B absent keys against it, one by one or batched
//   OutOfCache/...             the same, each query (or batch) against a random
//                              filter among copies totalling --out_of_cache_mib
//   ViaRocksDB/k<L>/...        --via_rocksdb implementations (ours and FastLocalBloom)
//                              through RocksDB's FilterBitsReader, policies from option
//                              strings, text keys of --via_rocksdb_key_lengths bytes,
//                              filters at a block cache's alignment, in and out of
//                              cache, single and batched (via_rocksdb_cases.h)
//   ViaLevelDB/n<N>/{present,absent}
//                              --via_leveldb implementations (LevelDB's built-in policy
//                              and ours) through leveldb::FilterPolicy::KeyMayMatch, filters
//                              of --via_leveldb_keys keys: the per-query cost of reading a
//                              filter LevelDB hands over as bytes (via_leveldb_cases.h)
// A summary table with ratios to our encoding, the same cases as time /
// RocksDB's FastLocalBloom, the ViaLevelDB cases as time / libleveldb, and
// the speed targets (compact's also against RocksDB's Ribbon) follow the
// usual Google Benchmark output (see ratio_reporter.h).
//
//   sstfilter_micro_bench [--benchmark_filter=REGEX] [--filters=a,b]
//                         [--bits_per_key=10] [--min_time=0.2]
//                         [--via_rocksdb=sst_cache_local,rocksdb_fv5]
//                         [--via_rocksdb_key_lengths=16,26] [--via_rocksdb_mib=320]
//                         [--via_rocksdb_rounds=12] [--via_rocksdb_min_time=0.05]
//                         [--via_leveldb=libleveldb,sst_leveldb,sst_cache_local,...]
//                         [--via_leveldb_keys=32,100,10000,1000000]
//                         [--via_leveldb_rounds=5] [--via_leveldb_min_time=0.05]
//
// Google Benchmark's --benchmark_* flags are taken first, the rest are ours
// (Abseil flags); --help lists both.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "bench/bench_rng.h"
#include "bench/filter_copies.h"
#include "bench/filter_impls.h"
#include "bench/key_shapes.h"
#include "bench/ratio_reporter.h"
#include "bench/via_leveldb_cases.h"
#include "bench/via_rocksdb_cases.h"
#include "benchmark/benchmark.h"
#include "filter/cpu_model.h"
#include "filter/encodings.h"
#include "tools/flags_usage.h"

ABSL_FLAG(double, bits_per_key, 10, "Bits per key of every filter");
ABSL_FLAG(std::string, filters, "all", "Comma-separated filter impls to run");
ABSL_FLAG(int64_t, in_cache_keys, 10000, "Keys in the single in-cache filter");
ABSL_FLAG(int64_t, out_of_cache_filter_keys, 100000,
          "Keys per filter in the out-of-cache set (an SST's worth)");
ABSL_FLAG(int64_t, out_of_cache_mib, 256, "Total size of the out-of-cache filter set");
ABSL_FLAG(double, min_time, 0.2, "Minimum seconds per benchmark");
ABSL_FLAG(std::vector<std::string>, via_rocksdb, std::vector<std::string>({"sst_cache_local",
                                                                          "rocksdb_fv5"}),
          "Implementations of the ViaRocksDB cases (ours and rocksdb_fv5, created from "
          "option strings); empty: no such case. Only those --filters selects run");
ABSL_FLAG(std::vector<std::string>, via_rocksdb_key_lengths,
          std::vector<std::string>({"16", "26"}), "Key lengths of the ViaRocksDB cases (bytes)");
ABSL_FLAG(int64_t, via_rocksdb_mib, 320,
          "Out-of-cache filter bytes of each ViaRocksDB implementation (MiB)");
ABSL_FLAG(int64_t, via_rocksdb_alignment, 16,
          "Alignment of the ViaRocksDB filter bytes (a block cache gives 16)");
ABSL_FLAG(int32_t, via_rocksdb_rounds, 12,
          "Interleaved rounds of the ViaRocksDB cases; the summary holds them against "
          "FastLocalBloom by the median of the paired rounds");
ABSL_FLAG(double, via_rocksdb_min_time, 0.05,
          "Minimum seconds per round of a ViaRocksDB case: many short rounds pair up more "
          "closely in time than a few long ones");
ABSL_FLAG(std::vector<std::string>, via_leveldb,
          sstfilter::bench::DefaultViaLevelDbImpls(),
          "Implementations of the ViaLevelDB cases (LevelDB's built-in policy, libleveldb, and "
          "ours); empty: no such case. Only those --filters selects run");
ABSL_FLAG(std::vector<std::string>, via_leveldb_keys,
          std::vector<std::string>({"32", "100", "10000", "1000000"}),
          "Keys per filter of the ViaLevelDB cases (LevelDB's per-block filters hold a few "
          "dozen; small filters come many to a set, a random one per query)");
ABSL_FLAG(int32_t, via_leveldb_rounds, 5,
          "Interleaved rounds of the ViaLevelDB cases; the summary keeps each case's fastest");
ABSL_FLAG(double, via_leveldb_min_time, 0.05, "Minimum seconds per round of a ViaLevelDB case");

namespace sstfilter::bench {
namespace {

// Query pools are a power of two so a random index is one mask.
constexpr size_t kPoolKeys = 1 << 14;
constexpr uint64_t kAbsentBase = uint64_t{1} << 40;  // Far from every present index.
constexpr KeyShape kShape = KeyShape::kRandom16;

using Rng = BenchRng;

struct Keys {
  KeySet in_cache{kShape, 0, static_cast<size_t>(absl::GetFlag(FLAGS_in_cache_keys))};
  KeySet in_cache_absent{kShape, kAbsentBase, in_cache.size()};
  KeySet out_of_cache{kShape, 0,
                      static_cast<size_t>(absl::GetFlag(FLAGS_out_of_cache_filter_keys))};
  KeySet absent_pool{kShape, kAbsentBase, kPoolKeys};
  // The first kPoolKeys of the out-of-cache filter's keys (all of them if fewer).
  std::vector<std::string_view> present_pool;

  Keys() {
    for (size_t i = 0; i < kPoolKeys; ++i) {
      present_pool.push_back(out_of_cache.keys()[i % out_of_cache.size()]);
    }
  }
};

const Keys& GetKeys() {
  static const Keys* keys = new Keys();
  return *keys;
}

// One in-cache filter per implementation, built on first use and kept.
struct InCacheFilter {
  std::unique_ptr<BenchFilter> filter;
  std::string bytes;
  std::unique_ptr<BenchFilterReader> reader;
};

InCacheFilter& GetInCacheFilter(const FilterImpl& impl) {
  static auto* filters = new std::map<std::string, InCacheFilter>();
  InCacheFilter& f = (*filters)[impl.name];
  if (f.reader == nullptr) {
    f.filter = impl.make(absl::GetFlag(FLAGS_bits_per_key));
    f.filter->Build(GetKeys().in_cache.keys(), &f.bytes);
    f.reader = f.filter->NewReader(f.bytes);
  }
  return f;
}

struct OutOfCacheSet {
  std::string kind;
  std::unique_ptr<BenchFilter> filter;
  std::unique_ptr<FilterCopies> copies;
};

OutOfCacheSet& TheOutOfCacheSet() {
  static auto* set = new OutOfCacheSet();
  return *set;
}

void ReleaseOutOfCacheSet() { TheOutOfCacheSet().copies.reset(); }

// The out-of-cache set of one implementation at a time: building the next implementation's set
// frees the previous one (and the ViaRocksDB cases' sets), so memory stays at about
// --out_of_cache_mib.
FilterCopies& GetOutOfCacheSet(const FilterImpl& impl) {
  std::string& current_kind = TheOutOfCacheSet().kind;
  std::unique_ptr<BenchFilter>& filter = TheOutOfCacheSet().filter;
  std::unique_ptr<FilterCopies>& copies = TheOutOfCacheSet().copies;
  if (copies == nullptr || current_kind != impl.name) {
    copies.reset();
    ReleaseViaRocksDbSets();
    const auto start = std::chrono::steady_clock::now();
    filter = impl.make(absl::GetFlag(FLAGS_bits_per_key));
    std::string bytes;
    filter->Build(GetKeys().out_of_cache.keys(), &bytes);
    copies = std::make_unique<FilterCopies>(
        *filter, bytes, static_cast<size_t>(absl::GetFlag(FLAGS_out_of_cache_mib)) << 20);
    current_kind = impl.name;
    const double secs = std::chrono::duration<double>(
        std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "[micro] %s: %zu copies of a %zu-byte filter = %.0f MiB, set up in %.2f s\n",
                 impl.name.c_str(), copies->num_copies(), bytes.size(),
                 copies->total_bytes() / 1048576.0, secs);
  }
  return *copies;
}

void BM_Build(benchmark::State& state, const FilterImpl& impl) {
  std::unique_ptr<BenchFilter> filter = impl.make(absl::GetFlag(FLAGS_bits_per_key));
  const std::vector<std::string_view>& keys = GetKeys().in_cache.keys();
  std::string bytes;
  for (auto _ : state) {
    filter->Build(keys, &bytes);
    benchmark::DoNotOptimize(bytes.data());
    benchmark::ClobberMemory();
  }
  SetPerKey(state, keys.size(), 0);
  state.counters.erase(kMatchCounter);
  state.counters[kBitsPerKeyCounter] = 8.0 * bytes.size() / keys.size();
}

void BM_InCacheQuery(benchmark::State& state, const FilterImpl& impl, bool present) {
  BenchFilterReader& reader = *GetInCacheFilter(impl).reader;
  const std::vector<std::string_view>& keys =
      present ? GetKeys().in_cache.keys() : GetKeys().in_cache_absent.keys();
  size_t i = 0, matches = 0;
  for (auto _ : state) {
    matches += reader.MayMatch(keys[i]);
    if (++i == keys.size()) i = 0;
  }
  SetPerKey(state, 1, matches);
}

void BM_OutOfCacheQuery(benchmark::State& state, const FilterImpl& impl, bool present) {
  FilterCopies& copies = GetOutOfCacheSet(impl);
  const std::vector<std::string_view>& pool =
      present ? GetKeys().present_pool : GetKeys().absent_pool.keys();
  Rng rng;
  size_t matches = 0;
  for (auto _ : state) {
    const uint64_t r = rng.Next();
    BenchFilterReader& reader = copies.reader(
        static_cast<size_t>((static_cast<unsigned __int128>(r) * copies.num_copies()) >> 64));
    matches += reader.MayMatch(pool[r & (kPoolKeys - 1)]);
  }
  SetPerKey(state, 1, matches);
}

// B absent keys per iteration against one filter (the in-cache one, or a
// random copy), asked one by one (loop) or through the batched API.
void BM_Batch(benchmark::State& state, const FilterImpl& impl, bool in_cache,
              size_t batch, bool batched) {
  BenchFilterReader* fixed = in_cache ? GetInCacheFilter(impl).reader.get() : nullptr;
  FilterCopies* copies = in_cache ? nullptr : &GetOutOfCacheSet(impl);
  const std::vector<std::string_view>& pool = GetKeys().absent_pool.keys();
  Rng rng;
  bool out[32];
  size_t matches = 0;
  for (auto _ : state) {
    BenchFilterReader& reader =
        in_cache ? *fixed : copies->reader(rng.Below(copies->num_copies()));
    const absl::Span<const std::string_view> keys(
        pool.data() + rng.Below(pool.size() - batch + 1), batch);
    if (batched) {
      reader.MayMatchBatch(keys, out);
    } else {
      for (size_t i = 0; i < batch; ++i) out[i] = reader.MayMatch(keys[i]);
    }
    for (size_t i = 0; i < batch; ++i) matches += out[i];
  }
  SetPerKey(state, batch, matches);
}

void RegisterAll(const std::vector<FilterImpl>& impls) {
  const double min_time = absl::GetFlag(FLAGS_min_time);
  // Grouped by implementation, so only one implementation's out-of-cache set is alive at a time.
  for (const FilterImpl& k : impls) {
    auto reg = [&](const std::string& case_name, auto fn, auto... args) {
      benchmark::RegisterBenchmark((case_name + "/" + k.name).c_str(), fn, k, args...)
          ->MinTime(min_time);
    };
    reg("Build", BM_Build);
    reg("InCache/present", BM_InCacheQuery, true);
    reg("InCache/absent", BM_InCacheQuery, false);
    for (size_t b : {8, 32}) {
      reg(absl::StrFormat("InCache/batch%d/loop", b), BM_Batch, true, b, false);
      if (k.native_batch) {
        reg(absl::StrFormat("InCache/batch%d/batched", b), BM_Batch, true, b, true);
      }
    }
    reg("OutOfCache/present", BM_OutOfCacheQuery, true);
    reg("OutOfCache/absent", BM_OutOfCacheQuery, false);
    for (size_t b : {8, 16, 32}) {
      reg(absl::StrFormat("OutOfCache/batch%d/loop", b), BM_Batch, false, b, false);
      if (k.native_batch) {
        reg(absl::StrFormat("OutOfCache/batch%d/batched", b), BM_Batch, false, b, true);
      }
    }
  }
}

// The ViaRocksDB cases (via_rocksdb_cases.h) of the --via_rocksdb implementations --filters
// selects; their setup line for the summary, empty when there are none.
absl::StatusOr<std::string> RegisterViaRocksDb(const std::vector<FilterImpl>& selected) {
  ViaRocksDbConfig config;
  for (const std::string& name : absl::GetFlag(FLAGS_via_rocksdb)) {
    if (!PolicyIdOf(name, 10).ok()) {
      return absl::InvalidArgumentError("--via_rocksdb: " +
                                        std::string(PolicyIdOf(name, 10).status().message()));
    }
    for (const FilterImpl& impl : selected) {
      if (impl.name == name) config.impls.push_back(name);
    }
  }
  if (config.impls.empty()) return std::string();
  for (const std::string& text : absl::GetFlag(FLAGS_via_rocksdb_key_lengths)) {
    size_t length = 0;
    if (!absl::SimpleAtoi(text, &length)) {
      return absl::InvalidArgumentError("--via_rocksdb_key_lengths: '" + text +
                                        "' is not a length in bytes");
    }
    config.key_lengths.push_back(length);
  }
  auto non_negative = [](int64_t v) { return static_cast<size_t>(std::max<int64_t>(v, 0)); };
  config.bits_per_key = absl::GetFlag(FLAGS_bits_per_key);
  config.in_cache_keys = non_negative(absl::GetFlag(FLAGS_in_cache_keys));
  config.filter_keys = non_negative(absl::GetFlag(FLAGS_out_of_cache_filter_keys));
  config.total_mib = non_negative(absl::GetFlag(FLAGS_via_rocksdb_mib));
  config.alignment = non_negative(absl::GetFlag(FLAGS_via_rocksdb_alignment));
  config.rounds = absl::GetFlag(FLAGS_via_rocksdb_rounds);
  config.min_time = absl::GetFlag(FLAGS_via_rocksdb_min_time);
  config.release_other_sets = ReleaseOutOfCacheSet;
  return RegisterViaRocksDbCases(config);
}

// The ViaLevelDB cases (via_leveldb_cases.h) of the --via_leveldb implementations --filters
// selects; their setup line for the summary, empty when there are none.
absl::StatusOr<std::string> RegisterViaLevelDb(const std::vector<FilterImpl>& selected) {
  ViaLevelDbConfig config;
  for (const std::string& name : absl::GetFlag(FLAGS_via_leveldb)) {
    if (!HasLevelDbPolicy(name)) {
      return absl::InvalidArgumentError("--via_leveldb: '" + name + "' has no LevelDB policy");
    }
    for (const FilterImpl& impl : selected) {
      if (impl.name == name) config.impls.push_back(name);
    }
  }
  config.num_keys.clear();
  for (const std::string& text : absl::GetFlag(FLAGS_via_leveldb_keys)) {
    size_t n = 0;
    if (!absl::SimpleAtoi(text, &n)) {
      return absl::InvalidArgumentError("--via_leveldb_keys: '" + text + "' is not a count");
    }
    config.num_keys.push_back(n);
  }
  config.bits_per_key = absl::GetFlag(FLAGS_bits_per_key);
  config.rounds = absl::GetFlag(FLAGS_via_leveldb_rounds);
  config.min_time = absl::GetFlag(FLAGS_via_leveldb_min_time);
  absl::StatusOr<std::string> line = RegisterViaLevelDbCases(config);
  if (!line.ok()) {
    return absl::InvalidArgumentError("--via_leveldb*: " + std::string(line.status().message()));
  }
  return line;
}

// Google Benchmark answers --help itself and exits; this is its help
// printer, so --help shows its flags and then ours (Abseil prints those and
// exits as for our other tools).
void PrintHelp() {
  std::printf("Google Benchmark's flags (accepted too):\n");
  benchmark::PrintDefaultHelp();
  std::printf("\n");
  std::fflush(stdout);
  char program[] = "sstfilter_micro_bench";
  char help[] = "--help";
  char* args[] = {program, help};
  absl::ParseCommandLine(2, args);
}

}  // namespace
}  // namespace sstfilter::bench

int main(int argc, char** argv) {
  using namespace sstfilter::bench;
  sstfilter::SetToolUsage(
      "bench/micro_bench.cc",
      "Micro benchmarks of every filter impl: build, in-cache and out-of-cache queries, one\n"
      "by one and batched, then a summary of ns/key and ratios (see the file comment).\n"
      "  sstfilter_micro_bench [--benchmark_filter=REGEX] [--filters=a,b] [--bits_per_key=10]");
  benchmark::Initialize(&argc, argv, PrintHelp);  // Takes the --benchmark_* flags.
  absl::ParseCommandLine(argc, argv);
  absl::StatusOr<std::vector<FilterImpl>> impls =
      SelectFilterImpls(absl::GetFlag(FLAGS_filters));
  if (!impls.ok()) {
    std::fprintf(stderr, "sstfilter_micro_bench: %s\n", impls.status().ToString().c_str());
    return 2;
  }
  RegisterAll(*impls);
  benchmark::AddCustomContext("sstfilter_cpu", sstfilter::CpuModelName());
  for (const auto& [encoding, level] : sstfilter::EncodingSimdLevels()) {
    benchmark::AddCustomContext("sstfilter_kernels_" + encoding, level);
  }
  if (!sstfilter::SimdCapNote().empty()) {
    benchmark::AddCustomContext("sstfilter_simd_cap", sstfilter::SimdCapNote());
  }
  std::string header = sstfilter::MachineLine() + "\n" +
      absl::StrFormat("%g bits/key, 16-byte random keys; in cache: one filter of %d keys; "
                      "out of cache: filters of %d keys totalling >= %d MiB",
                      absl::GetFlag(FLAGS_bits_per_key), absl::GetFlag(FLAGS_in_cache_keys),
                      absl::GetFlag(FLAGS_out_of_cache_filter_keys),
                      absl::GetFlag(FLAGS_out_of_cache_mib));
  absl::StatusOr<std::string> via = RegisterViaRocksDb(*impls);
  if (!via.ok()) {
    std::fprintf(stderr, "sstfilter_micro_bench: %s\n", via.status().ToString().c_str());
    return 2;
  }
  if (!via->empty()) header += "\n" + *via;
  absl::StatusOr<std::string> via_leveldb = RegisterViaLevelDb(*impls);
  if (!via_leveldb.ok()) {
    std::fprintf(stderr, "sstfilter_micro_bench: %s\n", via_leveldb.status().ToString().c_str());
    return 2;
  }
  if (!via_leveldb->empty()) header += "\n" + *via_leveldb;
  std::vector<std::string> names;
  for (const FilterImpl& k : AllFilterImpls()) names.push_back(k.name);
  RatioReporter reporter(names, header);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
