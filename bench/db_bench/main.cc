// sstfilter_db_bench: a db_bench-style benchmark of filter policies on an
// embedded RocksDB or LevelDB (a temporary directory unless --db is given).
//
//   sstfilter_db_bench --filter=sstfilter.bloom:10 --benchmarks=fillrandom,readmissing
//   sstfilter_db_bench --compare=sstfilter.bloom:10,bloomfilter:10,none --num=1000000
//   sstfilter_db_bench --compare='sstfilter.bloom:10:*,bloomfilter:10'  (* : each encoding)
//   sstfilter_db_bench --engine=leveldb --compare=leveldb:10,sstfilter.bloom:10,none
//   sstfilter_db_bench --shapes=all   (the tree shapes, shape.h)
//   sstfilter_db_bench --scenario=cached --cache_sweep=0.125,0.5,1,2  (cache_sweep.h)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "bench/db_bench/cache_sweep.h"
#include "bench/db_bench/cache_sweep_plot.h"
#include "bench/db_bench/compare_list.h"
#include "bench/db_bench/frontier.h"
#include "bench/db_bench/frontier_plot.h"
#include "bench/db_bench/progress.h"
#include "bench/db_bench/report.h"
#include "bench/db_bench/rocksdb_engine.h"
#include "bench/db_bench/run_dir.h"
#include "bench/db_bench/scenario.h"
#include "bench/db_bench/shape.h"
#include "bench/db_bench/shape_report.h"
#include "bench/db_bench/shape_run.h"
#include "bench/db_bench/workload.h"
#include "bench/db_bench/engine.h"
#include "filter/encoding_id.h"
#include "filter/encodings.h"
#include "tools/flags_usage.h"

// Empty: the engine's default list (BenchmarksFor).
ABSL_FLAG(std::string, benchmarks, "",
          "comma-separated, run in order: " + sstfilter::db_bench::BenchmarkNames() +
              " (default: fillrandom,readrandom,readmissing,multireadrandom; leveldb, which "
              "has no MultiGet: the same without multireadrandom)");
ABSL_FLAG(std::string, engine, "rocksdb",
          "rocksdb (the installed librocksdb) or leveldb (libleveldb)");
ABSL_FLAG(std::string, filter, "sstfilter.bloom:10",
          "filter_policy string; rocksdb: sstfilter.bloom:10[:<encoding>], "
          "{id=sstfilter.bloom;bits_per_key=10;format=cache_local}, bloomfilter:10, "
          "ribbonfilter:10, none; leveldb: leveldb:10 (LevelDB's built-in), "
          "sstfilter.bloom:10[:<encoding>], none; <encoding>: " +
              sstfilter::EncodingNameList());
ABSL_FLAG(std::string, compare, "",
          "comma-separated filter strings: run the same workload for each, in one "
          "process, and print a side-by-side table (overrides --filter); "
          "sstfilter.bloom:10:* stands for sstfilter.bloom:10 in each encoding");
// Flags a scenario sets (bench/db_bench/scenario.h) are optional: unset,
// the scenario's value, or the default in their help.
ABSL_FLAG(std::optional<int64_t>, num, std::nullopt,
          "number of keys written by fill benchmarks (default 1000000; disk: 2100000)");
ABSL_FLAG(std::optional<int64_t>, reads, std::nullopt,
          "reads per read benchmark (-1: --num; default -1; disk: 100000)");
ABSL_FLAG(int32_t, key_size, 16, "key bytes (>= 8; db_bench's big-endian number + '0' padding)");
ABSL_FLAG(int32_t, value_size, 100, "value bytes");
ABSL_FLAG(int32_t, batch_size, 32, "keys per MultiGet in multireadrandom");
ABSL_FLAG(int32_t, threads, 1, "reader threads (fills are single-threaded)");
ABSL_FLAG(std::optional<bool>, partition_index_and_filters, std::nullopt,
          "partitioned filters with a two-level index (one filter per partition; default "
          "false; cached: true)");
ABSL_FLAG(std::optional<int64_t>, cache_size, std::nullopt,
          "block cache bytes (default 8 MiB; budget: 32 MiB)");
ABSL_FLAG(bool, statistics, false, "print RocksDB's statistics after each filter's run");
ABSL_FLAG(std::optional<bool>, final_compaction, std::nullopt,
          "compact the DB after fills, so reads see one sorted run; false: reads see a tree "
          "of levels, which fills build without racing the engine's background work "
          "(RocksDB: each write batch waits for the flushes and compactions it triggers) "
          "(default true; disk: false)");
// The LSM shape, RocksDB only, as stock db_bench's flags of the same names;
// unset: RocksDB's defaults. tools/dev bench --levels sets them.
ABSL_FLAG(std::optional<int64_t>, write_buffer_size, std::nullopt,
          "rocksdb: memtable bytes (default: RocksDB's, 64 MB)");
ABSL_FLAG(std::optional<int64_t>, target_file_size_base, std::nullopt,
          "rocksdb: table file bytes in level 1 (default: RocksDB's, 64 MB)");
ABSL_FLAG(std::optional<int64_t>, max_bytes_for_level_base, std::nullopt,
          "rocksdb: bytes of the base level (default: RocksDB's, 256 MB)");
ABSL_FLAG(std::optional<double>, max_bytes_for_level_multiplier, std::nullopt,
          "rocksdb: growth of each level's bytes over the one above (default: RocksDB's, 10)");
ABSL_FLAG(std::optional<bool>, level_compaction_dynamic_level_bytes, std::nullopt,
          "rocksdb: size levels from the bottom up (default: RocksDB's: false before 8.4)");
ABSL_FLAG(std::optional<std::string>, compression_type, std::nullopt,
          "rocksdb: none, snappy, lz4 or zstd (default: RocksDB's, snappy)");
ABSL_FLAG(std::optional<bool>, use_direct_reads, std::nullopt,
          "rocksdb: read table files with O_DIRECT, so a block cache miss is a device read "
          "(default false; disk: true)");
ABSL_FLAG(std::optional<bool>, cache_index_and_filter_blocks, std::nullopt,
          "rocksdb: keep filter and index blocks in the block cache, competing with data "
          "blocks; false: held by each open table (default false; budget: true)");
ABSL_FLAG(std::string, scenario, "memory",
          "defaults for the flags that name one (a flag given wins): memory (one sorted run "
          "from the page cache), disk (a tree of levels in steady state, direct reads, "
          "uncompressed, 4 MB memtables and files, levels sized from the bottom growing 10x "
          "over a 16 MB base), budget (disk "
          "with filters and indexes in a 32 MB block cache), cached (8M keys, partitioned "
          "filters and indexes in an 8 MB block cache, direct reads, 8 MB memtables and "
          "files); bench/db_bench/scenario.h");
ABSL_FLAG(std::string, db, "",
          "DB directory (default: a temporary directory, removed after); with --compare, "
          "the i-th filter's DB is <db>.<i> (the first's <db>). Destroyed first unless "
          "--use_existing_db");
ABSL_FLAG(bool, use_existing_db, false,
          "as db_bench: open the DB(s) at --db as they are and skip fill benchmarks "
          "(reads use --num and --key_size of the run that wrote them)");
ABSL_FLAG(std::string, json, "", "also write the results as JSON to this file");
ABSL_FLAG(std::string, frontier, "",
          "settings (bits/key), e.g. 6,8,10,12: run fillrandom,readmissing for each family of "
          "--frontier_families at each setting and print data-block reads per absent Get "
          "against filter bytes per key, with <out_dir>/frontier.{csv,gp,png} (instead of "
          "--compare and --benchmarks)");
ABSL_FLAG(std::string, frontier_families, sstfilter::db_bench::kDefaultFrontierFamilies,
          "--frontier's policy families: filter strings with N for the setting (* : each "
          "encoding); the first is the reference the table compares each with");
ABSL_FLAG(std::string, out_dir, ".", "where --frontier writes frontier.csv, .gp and .png");
ABSL_FLAG(std::string, shapes, "",
          "all, or some of " + sstfilter::db_bench::ShapeNames() +
              ": run each tree shape (a history of fills, overwrites, compactions off and on, "
              "a reopen; bench/db_bench/shape.h) for each policy of --compare (default " +
              sstfilter::db_bench::kDefaultShapePolicies +
              "; the first is the reference) and print, at each measure point, filter bits "
              "per entry, false positives per absent Get against the advisor's optimum for "
              "the tree, and present-key Gets (instead of --benchmarks). Defaults: 1500000 "
              "keys, 2 MB memtables and files, 8 MB base level, uncompressed, direct reads, "
              "--reads=200000 absent-key Gets per point");
ABSL_FLAG(std::string, cache_sweep, "",
          "fractions of what bloomfilter:10's filters need at --num keys (10 bits a key), "
          "e.g. 0.125,0.25,0.5,1,2: build a DB for each policy of --compare (default " +
              std::string(sstfilter::db_bench::kDefaultCacheRows) +
              "; a policy ending in +optimize_filters_for_hits sets that option), reopen it "
              "with a block cache of each size and print device reads per Get (filter "
              "partitions + index + data), us per Get and filter bytes for --sweep_gets, "
              "--warm_reads then --reads Gets per point, and <out_dir>/cache_sweep.csv. Needs "
              "filters in the block cache (--scenario=cached)");
ABSL_FLAG(std::string, sweep_gets, "absent,present,mixed",
          "--cache_sweep: the kinds of Gets at each point: absent (none finds its key), "
          "present, mixed (half do)");
ABSL_FLAG(double, sweep_zipf, 0,
          "--cache_sweep: the Gets' keys drawn with hot ranges, zipfian with this theta over "
          "1000 ranges of consecutive keys (as --shapes' skewed traffic); 0: uniform");
ABSL_FLAG(int64_t, sweep_live_gets, 0,
          "--cache_sweep: a live tree: after the fill, every key written again in random "
          "order with this many Gets of the one kind --sweep_gets names (and --sweep_zipf's "
          "keys) before each twentieth of the writes, so the census has seen the Gets when "
          "compactions rewrite the tree; 0: the fill alone");
ABSL_FLAG(int64_t, sweep_learn_gets, 0,
          "--cache_sweep: a learning phase at each point: after its measure, this many Gets of "
          "the one kind --sweep_gets names (other keys, --sweep_zipf's draw), the census's "
          "rewrites of tables to the plan they teach, then the point measured again, with the "
          "tables and bytes rewritten against what the DB's load wrote; 0: none");
ABSL_FLAG(int64_t, warm_reads, 100000,
          "--cache_sweep: Gets before each point's measured ones (other keys, same draw)");
ABSL_FLAG(int64_t, present_reads, 20000, "--shapes: present-key Gets (readrandom) per point");
ABSL_FLAG(int64_t, shape_learn_gets, 0,
          "--shapes: a learning phase at each measure point: after its measure, this many "
          "absent-key Gets with the census's rebuild loop let go (it is held otherwise: a point "
          "is the tree as its history left it), its rewrites, then the point measured again "
          "(<point>+learn), with the bytes the rewrites wrote against the DB's flushes and "
          "compactions; 0: none");
ABSL_FLAG(int64_t, round_reads, 1000000,
          "--shapes, the skewed-traffic shapes (--shapes=skewed): absent-key Gets drawn by the "
          "shape's traffic in each round, before its measure point (RocksDB samples one Get in "
          "1024)");

namespace sstfilter::db_bench {
namespace {

int Fail(const std::string& message) {
  std::fprintf(stderr, "sstfilter_db_bench: %s\n", message.c_str());
  return 2;
}

// The tree's shape and the reads' storage: valid values, and RocksDB only.
absl::Status CheckRocksDbOnly(const WorkloadConfig& c) {
  const std::pair<const char*, std::optional<int64_t>> sizes[] = {
      {"write_buffer_size", c.shape.write_buffer_size},
      {"target_file_size_base", c.shape.target_file_size_base},
      {"max_bytes_for_level_base", c.shape.max_bytes_for_level_base}};
  for (const auto& [flag, value] : sizes) {
    if (value.has_value() && *value <= 0) {
      return absl::InvalidArgumentError(
          absl::StrFormat("--%s=%d: expected a byte count > 0", flag, *value));
    }
  }
  const std::optional<double> multiplier = c.shape.max_bytes_for_level_multiplier;
  if (multiplier.has_value() && !(*multiplier > 1 && *multiplier <= 1000)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--max_bytes_for_level_multiplier=%g: expected a number in (1, 1000]", *multiplier));
  }
  if (c.shape.compression_type) {
    if (absl::Status s = CompressionNamed(*c.shape.compression_type).status(); !s.ok()) return s;
  }
  const bool storage = c.use_direct_reads || c.cache_index_and_filter_blocks;
  if (c.engine != EngineKind::kRocksDb && (!c.shape.IsDefault() || storage)) {
    return absl::InvalidArgumentError(
        "--write_buffer_size, --target_file_size_base, --max_bytes_for_level_base, "
        "--max_bytes_for_level_multiplier, --level_compaction_dynamic_level_bytes, "
        "--compression_type, --use_direct_reads and --cache_index_and_filter_blocks are "
        "RocksDB's; they need --engine=rocksdb (and --scenario=memory)");
  }
  return absl::OkStatus();
}

absl::Status CheckFlags(const WorkloadConfig& c, const std::vector<std::string>& benchmarks) {
  auto bad = [](const std::string& flag, int64_t value, const char* expected) {
    return absl::InvalidArgumentError(
        absl::StrFormat("--%s=%d: %s", flag, value, expected));
  };
  if (c.num <= 0) return bad("num", c.num, "expected a positive number of keys");
  if (c.reads < -1) return bad("reads", c.reads, "expected -1 or a count >= 0");
  if (c.key_size < 8 || c.key_size > 4096) return bad("key_size", c.key_size, "expected 8..4096");
  if (c.value_size < 0 || c.value_size > (1 << 24)) {
    return bad("value_size", c.value_size, "expected 0..16777216");
  }
  if (c.batch_size < 1 || c.batch_size > 1024) {
    return bad("batch_size", c.batch_size, "expected 1..1024");
  }
  if (c.threads < 1 || c.threads > 256) return bad("threads", c.threads, "expected 1..256");
  if (c.cache_size < 0) return bad("cache_size", c.cache_size, "expected >= 0");
  if (absl::Status s = CheckRocksDbOnly(c); !s.ok()) return s;
  for (const std::string& b : benchmarks) {
    if (FindBenchmark(b) == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("--benchmarks: ", UnknownBenchmarkError(b).message()));
    }
  }
  if (benchmarks.empty()) return absl::InvalidArgumentError("--benchmarks is empty");
  for (const std::string& b : benchmarks) {
    if (absl::Status s = CheckBenchmarkSupported(*FindBenchmark(b), c.engine); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--benchmarks: ", s.message()));
    }
  }
  return absl::OkStatus();
}

// --benchmarks, or when it is empty the scenario's list, or the default list
// less what the engine cannot run (LevelDB has no MultiGet; naming
// multireadrandom is an error).
std::vector<std::string> BenchmarksFor(EngineKind engine,
                                       const std::optional<std::string>& scenario_list) {
  std::string given = absl::GetFlag(FLAGS_benchmarks);
  if (given.empty() && scenario_list.has_value()) given = *scenario_list;
  if (!given.empty()) return absl::StrSplit(given, ',', absl::SkipEmpty());
  std::vector<std::string> benchmarks;
  for (const char* b : {"fillrandom", "readrandom", "readmissing", "multireadrandom"}) {
    if (CheckBenchmarkSupported(*FindBenchmark(b), engine).ok()) benchmarks.push_back(b);
  }
  return benchmarks;
}

// The flag's value if given, else the scenario's if it has one, else
// `otherwise` (the default its help states).
template <typename T>
T Pick(const absl::Flag<std::optional<T>>& flag, const std::optional<T>& from_scenario,
       const T& otherwise) {
  return absl::GetFlag(flag).value_or(from_scenario.value_or(otherwise));
}
// The same for a flag whose unset value means the engine's default.
template <typename T>
std::optional<T> Pick(const absl::Flag<std::optional<T>>& flag,
                      const std::optional<T>& from_scenario) {
  const std::optional<T> given = absl::GetFlag(flag);
  return given.has_value() ? given : from_scenario;
}

absl::StatusOr<WorkloadConfig> ConfigFromFlags(const Scenario& scenario) {
  WorkloadConfig c;
  c.num = Pick(FLAGS_num, scenario.num, int64_t{1000000});
  c.reads = Pick(FLAGS_reads, scenario.reads, int64_t{-1});
  c.key_size = absl::GetFlag(FLAGS_key_size);
  c.value_size = absl::GetFlag(FLAGS_value_size);
  c.batch_size = absl::GetFlag(FLAGS_batch_size);
  c.threads = absl::GetFlag(FLAGS_threads);
  c.partition_index_and_filters =
      Pick(FLAGS_partition_index_and_filters, scenario.partition_index_and_filters, false);
  c.cache_size = Pick(FLAGS_cache_size, scenario.cache_size, int64_t{8} << 20);
  c.compact_after_fill = Pick(FLAGS_final_compaction, scenario.final_compaction, true);
  c.use_existing_db = absl::GetFlag(FLAGS_use_existing_db);
  c.use_direct_reads = Pick(FLAGS_use_direct_reads, scenario.use_direct_reads, false);
  c.cache_index_and_filter_blocks =
      Pick(FLAGS_cache_index_and_filter_blocks, scenario.cache_index_and_filter_blocks, false);
  const LsmShape& s = scenario.shape;
  c.shape.write_buffer_size = Pick(FLAGS_write_buffer_size, s.write_buffer_size);
  c.shape.target_file_size_base = Pick(FLAGS_target_file_size_base, s.target_file_size_base);
  c.shape.max_bytes_for_level_base =
      Pick(FLAGS_max_bytes_for_level_base, s.max_bytes_for_level_base);
  c.shape.max_bytes_for_level_multiplier =
      Pick(FLAGS_max_bytes_for_level_multiplier, s.max_bytes_for_level_multiplier);
  c.shape.level_compaction_dynamic_level_bytes =
      Pick(FLAGS_level_compaction_dynamic_level_bytes, s.level_compaction_dynamic_level_bytes);
  c.shape.compression_type = Pick(FLAGS_compression_type, s.compression_type);
  absl::StatusOr<EngineKind> engine = ParseEngineKind(absl::GetFlag(FLAGS_engine));
  if (!engine.ok()) return engine.status();
  c.engine = *engine;
  return c;
}

absl::StatusOr<FilterRun> RunFilter(const std::string& filter, const std::string& what,
                                    const std::string& path, const WorkloadConfig& config,
                                    const std::vector<std::string>& benchmarks, bool statistics) {
  absl::StatusOr<std::unique_ptr<BenchDb>> db = BenchDb::Open(filter, path, config);
  if (!db.ok()) return db.status();
  FilterRun run;
  run.filter = filter;
  std::printf("engine       : %s\n", EngineName(config.engine));
  std::printf("filter       : %s\n", filter.c_str());
  for (size_t b = 0; b < benchmarks.size(); ++b) {
    const std::string& name = benchmarks[b];
    if (config.use_existing_db && FindBenchmark(name)->op == BenchmarkSpec::Op::kFill) {
      std::printf("%-12s : skipped (--use_existing_db is true)\n", name.c_str());
      continue;
    }
    ProgressLine(absl::StrFormat("%s (%s): %s (benchmark %d of %d)", filter, what, name, b + 1,
                                 benchmarks.size()));
    absl::StatusOr<BenchmarkResult> result = (*db)->Run(name);
    if (!result.ok()) return result.status();
    std::printf("%s\n%s\n", ResultLine(*result).c_str(), FilterLine(*result).c_str());
    std::fflush(stdout);
    run.results.push_back(*result);
  }
  if (statistics) std::printf("STATISTICS:\n%s\n", (*db)->StatisticsDump().c_str());
  return run;
}

// Runs one filter in a DB of its own (a temporary directory unless --db);
// `what` says where it stands in the whole run ("policy 2 of 5").
absl::StatusOr<FilterRun> RunInOwnDb(const std::string& filter, size_t index,
                                     const std::string& what, const WorkloadConfig& config,
                                     const std::vector<std::string>& benchmarks) {
  absl::StatusOr<RunDir> dir =
      RunDir::Make(absl::GetFlag(FLAGS_db), index == 0 ? "" : absl::StrCat(index));
  if (!dir.ok()) return dir.status();
  return RunFilter(filter, what, dir->path(), config, benchmarks,
                   absl::GetFlag(FLAGS_statistics));
}

// --frontier: each family at each setting; the table, CSV and plot.
int RunFrontier(const WorkloadConfig& config, const Scenario& scenario) {
  if (!absl::GetFlag(FLAGS_compare).empty() || config.use_existing_db) {
    return Fail("--frontier builds its own DBs: it takes neither --compare nor --use_existing_db");
  }
  const absl::StatusOr<std::vector<double>> settings =
      ParseFrontierSettings(absl::GetFlag(FLAGS_frontier));
  if (!settings.ok()) return Fail(std::string(settings.status().message()));
  const absl::StatusOr<std::vector<FrontierFamily>> families =
      ExpandFrontierFamilies(absl::GetFlag(FLAGS_frontier_families), *settings);
  if (!families.ok()) return Fail(std::string(families.status().message()));
  const std::vector<std::string> benchmarks = {"fillrandom", "readmissing"};
  std::vector<FrontierCurve> curves;
  size_t index = 0;
  const size_t runs = families->size() * settings->size();
  for (const FrontierFamily& family : *families) {
    curves.push_back({family.label, {}});
    for (size_t i = 0; i < settings->size(); ++i) {
      const std::string what = absl::StrFormat("frontier run %d of %d", index + 1, runs);
      absl::StatusOr<FilterRun> run =
          RunInOwnDb(family.filters[i], index++, what, config, benchmarks);
      if (!run.ok()) return Fail(std::string(run.status().message()));
      const BenchmarkResult& read = run->results.back();
      curves.back().points.push_back({(*settings)[i], read.filter_bytes_per_key(),
                                      read.data_block_reads_per_op(), read.micros_per_op()});
    }
  }
  const double reference = (*settings)[settings->size() / 2];
  const double ten = 10;
  const bool has_ten = std::find(settings->begin(), settings->end(), ten) != settings->end();
  std::printf("\n%s", FrontierTable(curves, has_ten ? ten : reference).c_str());
  const std::string stem = absl::GetFlag(FLAGS_out_dir) + "/frontier";
  std::error_code ignored;
  std::filesystem::create_directories(absl::GetFlag(FLAGS_out_dir), ignored);
  std::ofstream csv(stem + ".csv");
  csv << FrontierCsv(curves);
  if (!csv) return Fail(absl::StrFormat("--out_dir: cannot write %s.csv", stem));
  const std::string title = absl::StrFormat(
      "sstfilter_db_bench --scenario=%s: %d keys, %d absent Gets per point", scenario.name,
      config.num, config.reads < 0 ? config.num : config.reads);
  if (absl::Status s = RenderFrontierPlot(curves, title, stem); !s.ok()) {
    return Fail(std::string(s.message()));
  }
  std::printf("\nwrote %s.csv, %s.gp and %s.png\n", stem.c_str(), stem.c_str(), stem.c_str());
  return 0;
}

// --cache_sweep: each policy's DB read at each block-cache size.
int RunCacheSweepMode(const WorkloadConfig& workload) {
  if (workload.engine != EngineKind::kRocksDb || !workload.cache_index_and_filter_blocks ||
      workload.use_existing_db || !absl::GetFlag(FLAGS_frontier).empty()) {
    return Fail("--cache_sweep needs --engine=rocksdb and filters in the block cache "
                "(--scenario=cached, or --cache_index_and_filter_blocks), and builds its own "
                "DBs: no --use_existing_db or --frontier");
  }
  if (absl::Status s = CheckFlags(workload, {"fillrandom", "readrandom"}); !s.ok()) {
    return Fail(std::string(s.message()));
  }
  CacheSweepConfig config;
  config.workload = workload;
  config.reads = workload.reads >= 0 ? workload.reads : workload.num;
  config.warm_reads = absl::GetFlag(FLAGS_warm_reads);
  config.db = absl::GetFlag(FLAGS_db);
  config.traffic.zipf_theta = absl::GetFlag(FLAGS_sweep_zipf);
  if (!(config.traffic.zipf_theta >= 0 && config.traffic.zipf_theta <= 10)) {
    return Fail(absl::StrFormat("--sweep_zipf=%g: expected a theta in [0, 10] (0: uniform)",
                                config.traffic.zipf_theta));
  }
  if (config.reads < 1 || config.warm_reads < 0) {
    return Fail("--cache_sweep: --reads must be at least 1 and --warm_reads at least 0");
  }
  absl::StatusOr<std::vector<double>> fractions =
      ParseCacheFractions(absl::GetFlag(FLAGS_cache_sweep));
  absl::StatusOr<std::vector<GetKind>> kinds = ParseSweepGets(absl::GetFlag(FLAGS_sweep_gets));
  const std::string compare = absl::GetFlag(FLAGS_compare);
  absl::StatusOr<std::vector<CacheRow>> rows =
      ParseCacheRows(compare.empty() ? kDefaultCacheRows : compare);
  for (const absl::Status& s : {fractions.status(), kinds.status(), rows.status()}) {
    if (!s.ok()) return Fail(std::string(s.message()));
  }
  config.fractions = *fractions, config.kinds = *kinds, config.rows = *rows;
  config.live_gets = absl::GetFlag(FLAGS_sweep_live_gets);
  if (config.live_gets < 0 || (config.live_gets > 0 && config.kinds.size() != 1)) {
    return Fail(absl::StrFormat("--sweep_live_gets=%d: expected 0, or Gets per round with one "
                                "kind in --sweep_gets (it has %d)",
                                config.live_gets, config.kinds.size()));
  }
  config.learn_gets = absl::GetFlag(FLAGS_sweep_learn_gets);
  if (config.learn_gets < 0 || (config.learn_gets > 0 && config.kinds.size() != 1)) {
    return Fail(
        absl::StrFormat("--sweep_learn_gets=%d: expected 0, or Gets with one kind in "
                        "--sweep_gets (it has %d)",
                        config.learn_gets, config.kinds.size()));
  }
  absl::PrintF("cache sweep: %d keys of %d + %d bytes, partitioned filters %s; block caches of "
               "%s x %s MiB (bloomfilter:10's filters at 10 bits a key); %d + %d Gets a point, "
               "keys %s\n",
               workload.num, workload.key_size, workload.value_size,
               workload.partition_index_and_filters ? "on" : "off",
               absl::GetFlag(FLAGS_cache_sweep),
               absl::StrFormat("%.2f", BloomTenFilterBytes(workload.num) / 1048576.0),
               config.warm_reads, config.reads, config.traffic.Describe());
  std::vector<CachePoint> all;
  absl::Status s = RunCacheSweep(config, [&](const std::vector<CachePoint>& points) {
    all.insert(all.end(), points.begin(), points.end());
  });
  if (!s.ok()) return Fail(std::string(s.message()));
  std::printf("%s", CacheSweepTable(all).c_str());
  const std::string stem = absl::GetFlag(FLAGS_out_dir) + "/cache_sweep";
  std::error_code ignored;
  std::filesystem::create_directories(absl::GetFlag(FLAGS_out_dir), ignored);
  std::ofstream csv(stem + ".csv");
  csv << CacheSweepCsv(all);
  if (!csv) return Fail(absl::StrFormat("--out_dir: cannot write %s.csv", stem));
  const std::string title = absl::StrFormat(
      "sstfilter_db_bench --scenario=cached: %d keys, %d Gets a point, keys %s", workload.num,
      config.reads, config.traffic.Describe());
  if (absl::Status s = RenderCacheSweepPlot(all, title, stem); !s.ok()) {
    return Fail(std::string(s.message()));
  }
  std::printf("\nwrote %s.csv, %s.gp and %s.png\n", stem.c_str(), stem.c_str(), stem.c_str());
  return 0;
}

// --shapes: each shape for each policy; the table shape by shape, JSON.
int RunShapesMode() {
  if (absl::GetFlag(FLAGS_scenario) != "memory" || !absl::GetFlag(FLAGS_frontier).empty() ||
      absl::GetFlag(FLAGS_use_existing_db)) {
    return Fail("--shapes sets its own defaults and builds its own DBs: it takes no --scenario, "
                "--frontier or --use_existing_db");
  }
  const absl::StatusOr<std::vector<const TreeShape*>> shapes =
      FindShapes(absl::GetFlag(FLAGS_shapes));
  if (!shapes.ok()) return Fail(std::string(shapes.status().message()));
  absl::StatusOr<WorkloadConfig> workload = ConfigFromFlags(ShapesScenario());
  if (!workload.ok()) return Fail(std::string(workload.status().message()));
  if (workload->engine != EngineKind::kRocksDb) return Fail("--shapes needs --engine=rocksdb");
  if (absl::Status s = CheckFlags(*workload, {"readmissing", "readrandom"}); !s.ok()) {
    return Fail(std::string(s.message()));
  }
  ShapeConfig config;
  config.workload = *workload;
  config.absent_reads = workload->reads >= 0 ? workload->reads : workload->num;
  config.present_reads = absl::GetFlag(FLAGS_present_reads);
  config.round_reads = absl::GetFlag(FLAGS_round_reads);
  config.learn_gets = absl::GetFlag(FLAGS_shape_learn_gets);
  config.db = absl::GetFlag(FLAGS_db);
  if (config.absent_reads < 1 || config.present_reads < 1 || config.round_reads < 1) {
    return Fail("--shapes: --reads, --present_reads and --round_reads must be at least 1");
  }
  if (config.learn_gets < 0) {
    return Fail(absl::StrFormat("--shape_learn_gets=%d: expected 0 (none) or more Gets",
                                config.learn_gets));
  }
  const std::string compare = absl::GetFlag(FLAGS_compare);
  const absl::StatusOr<std::vector<std::string>> policies =
      ExpandCompareList(compare.empty() ? kDefaultShapePolicies : compare);
  if (!policies.ok()) return Fail(std::string(policies.status().message()));

  absl::PrintF("shapes: %d keys of %d + %d bytes, %d absent-key and %d present-key Gets per "
               "point; each policy builds its own tree\n",
               workload->num, workload->key_size, workload->value_size, config.absent_reads,
               config.present_reads);
  for (const TreeShape* shape : *shapes) absl::PrintF("  %-15s %s\n", shape->name, shape->history);
  const ShapesTable table(*policies);
  std::printf("\n%s", table.Header().c_str());
  std::fflush(stdout);
  std::vector<PointResult> all;
  absl::Status s = RunShapes(*shapes, *policies, config, [&](const std::vector<PointResult>& r) {
    std::printf("%s", table.Rows(r).c_str());
    std::fflush(stdout);
    all.insert(all.end(), r.begin(), r.end());
  });
  if (!s.ok()) return Fail(std::string(s.message()));
  std::printf("%s", table.Legend().c_str());
  const std::string json_path = absl::GetFlag(FLAGS_json);
  if (!json_path.empty()) {
    std::ofstream json(json_path);
    json << ShapesJson(all, config);
    if (!json) return Fail(absl::StrFormat("--json=%s: cannot write the file", json_path));
  }
  return 0;
}

int Main(int argc, char** argv) {
  sstfilter::SetToolUsage(
      "bench/db_bench/",
      "db_bench-style benchmark of filter policies on an embedded RocksDB or LevelDB.\n"
      "  sstfilter_db_bench --compare=sstfilter.bloom:10,bloomfilter:10,none --num=1000000\n"
      "  sstfilter_db_bench --engine=leveldb --compare=leveldb:10,sstfilter.bloom:10,none\n"
      "  sstfilter_db_bench --shapes=all\n"
      "Result lines use db_bench's format; after each, the filter's FP rate on absent-key\n"
      "checks, data blocks read per op and the live tables' filter bytes (per key, in\n"
      "total and by level). fillrandom writes every key once, in random order.");
  std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  if (rest.size() > 1) return Fail(absl::StrFormat("unexpected argument '%s'", rest[1]));
  if (!absl::GetFlag(FLAGS_shapes).empty()) {
    std::printf("%s\n", MachineLine().c_str());
    return RunShapesMode();
  }

  absl::StatusOr<Scenario> scenario = FindScenario(absl::GetFlag(FLAGS_scenario));
  if (!scenario.ok()) return Fail(std::string(scenario.status().message()));
  absl::StatusOr<WorkloadConfig> config = ConfigFromFlags(*scenario);
  if (!config.ok()) return Fail(std::string(config.status().message()));
  if (config->use_existing_db && absl::GetFlag(FLAGS_db).empty()) {
    return Fail("--use_existing_db needs --db=<directory of the existing DB>");
  }
  std::printf("%s\n", MachineLine().c_str());
  if (!absl::GetFlag(FLAGS_cache_sweep).empty()) return RunCacheSweepMode(*config);
  if (!absl::GetFlag(FLAGS_frontier).empty()) return RunFrontier(*config, *scenario);
  const std::vector<std::string> benchmarks =
      BenchmarksFor(config->engine, scenario->benchmarks);
  if (absl::Status s = CheckFlags(*config, benchmarks); !s.ok()) {
    return Fail(std::string(s.message()));
  }
  const bool comparing = !absl::GetFlag(FLAGS_compare).empty();
  const absl::StatusOr<std::vector<std::string>> filters =
      comparing ? ExpandCompareList(absl::GetFlag(FLAGS_compare))
                : absl::StatusOr<std::vector<std::string>>({absl::GetFlag(FLAGS_filter)});
  if (!filters.ok()) return Fail(std::string(filters.status().message()));

  std::vector<FilterRun> runs;
  for (size_t i = 0; i < filters->size(); ++i) {
    const std::string what = absl::StrFormat("policy %d of %d", i + 1, filters->size());
    absl::StatusOr<FilterRun> run = RunInOwnDb((*filters)[i], i, what, *config, benchmarks);
    if (!run.ok()) return Fail(std::string(run.status().message()));
    runs.push_back(*std::move(run));
  }
  if (comparing) std::printf("\n%s", CompareTable(runs).c_str());
  const std::string json_path = absl::GetFlag(FLAGS_json);
  if (!json_path.empty()) {
    std::ofstream json(json_path);
    json << ToJson(runs, *config);
    if (!json) return Fail(absl::StrFormat("--json=%s: cannot write the file", json_path));
  }
  return 0;
}

}  // namespace
}  // namespace sstfilter::db_bench

int main(int argc, char** argv) { return sstfilter::db_bench::Main(argc, argv); }
