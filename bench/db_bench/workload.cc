#include "bench/db_bench/workload.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <mutex>
#include <numeric>
#include <random>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bench/db_bench/leveldb_engine.h"
#include "bench/db_bench/rocksdb_engine.h"

namespace sstfilter::db_bench {

namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// A benchmark's failure: "<benchmark>: <operation> failed: <engine status>".
absl::Status OpFailed(std::string_view benchmark, const char* op, const absl::Status& s) {
  return absl::InternalError(absl::StrFormat("%s: %s failed: %s", benchmark, op, s.message()));
}

// The first error any reader thread saw; readers stop once one is recorded.
class FirstError {
 public:
  void Record(std::string_view benchmark, const char* op, const absl::Status& s) {
    std::lock_guard<std::mutex> lock(mu_);
    if (status_.ok()) status_ = OpFailed(benchmark, op, s);
    failed_.store(true, std::memory_order_relaxed);
  }
  bool failed() const { return failed_.load(std::memory_order_relaxed); }
  // REQUIRES: every reader thread has been joined.
  const absl::Status& status() const { return status_; }

 private:
  std::mutex mu_;
  absl::Status status_;
  std::atomic<bool> failed_{false};
};

// Progress for long phases, on stderr so stdout stays db_bench-shaped.
void Progress(const std::string& name, int64_t done, int64_t total) {
  if (total >= 200000 && done % (total / 5) == 0 && done > 0) {
    std::fprintf(stderr, "... %s: %lld of %lld ops\n", name.c_str(),
                 static_cast<long long>(done), static_cast<long long>(total));
  }
}

}  // namespace

const BenchmarkSpec* FindBenchmark(std::string_view name) {
  for (const BenchmarkSpec& spec : kBenchmarks) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

std::string BenchmarkNames() {
  return absl::StrJoin(kBenchmarks, ", ", [](std::string* out, const BenchmarkSpec& spec) {
    out->append(spec.name);
  });
}

absl::Status UnknownBenchmarkError(std::string_view name) {
  return absl::InvalidArgumentError(
      absl::StrFormat("unknown benchmark '%s'; expected one of %s", name, BenchmarkNames()));
}

std::string MakeKey(uint64_t v, int key_size) {
  std::string key(static_cast<size_t>(key_size), '0');
  const int bytes = std::min(key_size, 8);
  for (int i = 0; i < bytes; ++i) {
    key[i] = static_cast<char>((v >> (8 * (bytes - 1 - i))) & 0xff);
  }
  return key;
}

uint64_t KeyNumber(std::string_view key, int key_size) {
  const size_t bytes = std::min<size_t>(static_cast<size_t>(std::min(key_size, 8)), key.size());
  uint64_t v = 0;
  for (size_t i = 0; i < bytes; ++i) v = v << 8 | static_cast<unsigned char>(key[i]);
  return v;
}

absl::Status CheckBenchmarkSupported(const BenchmarkSpec& spec, EngineKind engine) {
  if (spec.multi && engine == EngineKind::kLevelDb) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: LevelDB has no MultiGet (a loop of Gets would be readrandom); "
        "--engine=leveldb runs fillrandom, fillseq, readrandom, readmissing",
        spec.name));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<BenchDb>> BenchDb::Open(const std::string& filter,
                                                       const std::string& path,
                                                       const WorkloadConfig& config,
                                                       rocksdb::Env* env) {
  EngineOptions options;
  options.filter = filter;
  options.path = path;
  options.cache_size = config.cache_size;
  options.partition_index_and_filters = config.partition_index_and_filters;
  options.use_existing_db = config.use_existing_db;
  options.num = config.num;
  options.shape = config.shape;
  options.use_direct_reads = config.use_direct_reads;
  options.cache_index_and_filter_blocks = config.cache_index_and_filter_blocks;
  options.optimize_filters_for_hits = config.optimize_filters_for_hits;
  absl::StatusOr<std::unique_ptr<Engine>> engine =
      config.engine == EngineKind::kLevelDb ? OpenLevelDbEngine(options)
                                            : OpenRocksDbEngine(options, env);
  if (!engine.ok()) return engine.status();
  auto db = std::unique_ptr<BenchDb>(new BenchDb());
  db->config_ = config;
  db->engine_ = *std::move(engine);
  return db;
}

std::string BenchDb::StatisticsDump() const { return engine_->StatisticsDump(); }

absl::StatusOr<BenchmarkResult> BenchDb::Run(const std::string& benchmark) {
  const BenchmarkSpec* spec = FindBenchmark(benchmark);
  if (spec == nullptr) return UnknownBenchmarkError(benchmark);
  if (absl::Status s = CheckBenchmarkSupported(*spec, config_.engine); !s.ok()) return s;
  if (spec->op == BenchmarkSpec::Op::kFill) return WithTables(Fill(*spec));
  return WithTables(
      Read(*spec, ReadKeys{config_.num}, config_.reads >= 0 ? config_.reads : config_.num));
}

absl::StatusOr<BenchmarkResult> BenchDb::RunRead(const std::string& benchmark,
                                                 const ReadKeys& keys, int64_t reads) {
  const BenchmarkSpec* spec = FindBenchmark(benchmark);
  if (spec == nullptr) return UnknownBenchmarkError(benchmark);
  if (spec->op != BenchmarkSpec::Op::kRead) {
    return absl::InvalidArgumentError(absl::StrFormat("%s is not a read benchmark", benchmark));
  }
  if (absl::Status s = CheckBenchmarkSupported(*spec, config_.engine); !s.ok()) return s;
  return WithTables(Read(*spec, keys, reads));
}

absl::StatusOr<BenchmarkResult> BenchDb::WithTables(absl::StatusOr<BenchmarkResult> result) {
  if (!result.ok()) return result;
  absl::StatusOr<FilterSizes> sizes = engine_->LiveFilterSizes();
  if (!sizes.ok()) return sizes.status();
  result->tables = *sizes;
  return result;
}

absl::Status BenchDb::WriteKeys(std::string_view benchmark, const std::vector<uint64_t>& numbers,
                               size_t begin, size_t end) {
  const std::string name(benchmark);
  const std::string value(static_cast<size_t>(config_.value_size), 'v');
  constexpr size_t kWriteBatch = 100;
  std::vector<std::string> batch;
  for (size_t i = begin; i < end; ++i) {
    batch.push_back(MakeKey(numbers[i], config_.key_size));
    if (batch.size() == kWriteBatch || i + 1 == end) {
      absl::Status s = engine_->Write(batch, value);
      if (!s.ok()) return OpFailed(name, "Write", s);
      batch.clear();
      // Without the final full compaction the tree is what the reads see:
      // each flush and the compactions it triggers run to completion before
      // more is written, so its shape follows from the data (and the tables'
      // sizes), the same for every filter, not from thread timing.
      if (!config_.compact_after_fill) {
        s = engine_->WaitForCompactions();
        if (!s.ok()) return OpFailed(name, "waiting for compactions", s);
      }
    }
    Progress(name, static_cast<int64_t>(i + 1), static_cast<int64_t>(numbers.size()));
  }
  return absl::OkStatus();
}

absl::StatusOr<BenchmarkResult> BenchDb::Fill(const BenchmarkSpec& spec) {
  // Every key is written once: fillrandom uses a random permutation (stock
  // db_bench draws with replacement, leaving ~37% of keys unwritten).
  const std::string name(spec.name);
  std::vector<uint64_t> order(static_cast<size_t>(config_.num));
  std::iota(order.begin(), order.end(), 0);
  if (!spec.sequential) std::shuffle(order.begin(), order.end(), std::mt19937_64(config_.seed));

  const auto start = Clock::now();
  if (absl::Status s = WriteKeys(name, order, 0, order.size()); !s.ok()) return s;
  absl::Status s = engine_->Flush();
  if (!s.ok()) return OpFailed(name, "Flush", s);
  if (config_.compact_after_fill) {
    std::fprintf(stderr, "... %s: compacting\n", name.c_str());
    s = engine_->CompactAll();
    if (!s.ok()) return OpFailed(name, "CompactRange", s);
  } else {
    std::fprintf(stderr, "... %s: waiting for compactions\n", name.c_str());
    s = engine_->WaitForCompactions();
    if (!s.ok()) return OpFailed(name, "waiting for compactions", s);
  }
  BenchmarkResult result;
  result.name = name;
  result.ops = config_.num;
  result.seconds = SecondsSince(start);
  return result;
}

// What the reader threads of one read benchmark add up.
struct BenchDb::ReadTotals {
  std::atomic<int64_t> found{0};
  FirstError error;
};

void BenchDb::ReadThread(const BenchmarkSpec& spec, int t, int threads, const ReadKeys& keys,
                         int64_t reads, ReadTotals* totals) {
  const std::string name(spec.name);
  const size_t batch = spec.multi ? static_cast<size_t>(std::max(1, config_.batch_size)) : 1;
  // Found or not is an ordinary answer; an error fails the benchmark.
  int64_t my_found = 0;
  auto count = [&](const absl::StatusOr<bool>& answer, const char* op) {
    if (!answer.ok()) {
      totals->error.Record(name, op, answer.status());
    } else if (*answer) {
      ++my_found;
    }
  };
  const std::unique_ptr<EngineReader> reader = engine_->NewReader();
  // Each benchmark draws its own keys: one reading the keys the previous
  // one read would find their blocks in the block cache.
  const uint64_t benchmark_index = static_cast<uint64_t>(&spec - kBenchmarks);
  std::mt19937_64 rng((config_.seed * 7919 + static_cast<uint64_t>(t)) * 31 + benchmark_index +
                     keys.draw * 1000003);
  const KeyDraw pick(keys.traffic, keys.count);
  // Missing keys are present ones read one byte longer.
  std::bernoulli_distribution missing(std::clamp(keys.missing_share, 0.0, 1.0));
  auto key_size = [&] {
    const bool is_missing = keys.missing_share < 0 ? spec.missing : missing(rng);
    return config_.key_size + (is_missing ? 1 : 0);
  };
  const auto step = static_cast<uint64_t>(keys.step);
  const int64_t my_reads = reads / threads + (t < reads % threads ? 1 : 0);
  std::vector<std::string> batch_keys(batch);
  std::vector<absl::StatusOr<bool>> answers(batch);
  for (int64_t done = 0; done < my_reads && !totals->error.failed();) {
    const size_t n = std::min<int64_t>(static_cast<int64_t>(batch), my_reads - done);
    for (size_t i = 0; i < n; ++i) batch_keys[i] = MakeKey(step * pick(rng), key_size());
    if (spec.multi) {
      reader->MultiGet(batch_keys, n, answers.data());
      for (size_t i = 0; i < n; ++i) count(answers[i], "MultiGet");
    } else {
      count(reader->Get(batch_keys[0]), "Get");
    }
    done += static_cast<int64_t>(n);
    if (t == 0) Progress(name, done * threads, reads);
  }
  totals->found += my_found;
}

absl::StatusOr<BenchmarkResult> BenchDb::Read(const BenchmarkSpec& spec, const ReadKeys& keys,
                                              int64_t reads) {
  const int threads = std::max(1, config_.threads);
  const EngineCounters before = engine_->Counters();

  ReadTotals totals;
  const auto start = Clock::now();
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) {
    pool.emplace_back(&BenchDb::ReadThread, this, std::cref(spec), t, threads, std::cref(keys),
                      reads, &totals);
  }
  ReadThread(spec, 0, threads, keys, reads, &totals);
  for (std::thread& th : pool) th.join();
  if (totals.error.failed()) return totals.error.status();

  BenchmarkResult result;
  result.name = std::string(spec.name);
  result.is_read = true;
  result.ops = reads;
  result.seconds = SecondsSince(start);
  result.found = totals.found;
  result.counters = engine_->Counters().Since(before);
  return result;
}

}  // namespace sstfilter::db_bench
