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
#include "rocksdb/cache.h"
#include "rocksdb/convenience.h"
#include "rocksdb/perf_context.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "table/rocksdb/open_db.h"
#include "rocksdb/write_batch.h"
#include "table/rocksdb/registration.h"

namespace sstfilter::db_bench {

namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

absl::Status FromRocksDb(const rocksdb::Status& s, const std::string& what) {
  return absl::InternalError(absl::StrFormat("%s: %s", what, s.ToString()));
}

// A benchmark's failure: "<benchmark>: <operation> failed: <RocksDB status>".
absl::Status OpFailed(std::string_view benchmark, const char* op, const rocksdb::Status& s) {
  return absl::InternalError(
      absl::StrFormat("%s: %s failed: %s", benchmark, op, s.ToString()));
}

// The first error any reader thread saw; readers stop once one is recorded.
class FirstError {
 public:
  void Record(std::string_view benchmark, const char* op, const rocksdb::Status& s) {
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

double BenchmarkResult::fp_rate() const {
  // Negatives are always absent keys (a filter has no false negatives);
  // false positives are positives whose key was not there.
  const uint64_t checks = absent_checks();
  return checks ? static_cast<double>(filter_positive - filter_true_positive) / checks : 0;
}

std::string MakeKey(uint64_t v, int key_size) {
  std::string key(static_cast<size_t>(key_size), '0');
  const int bytes = std::min(key_size, 8);
  for (int i = 0; i < bytes; ++i) {
    key[i] = static_cast<char>((v >> (8 * (bytes - 1 - i))) & 0xff);
  }
  return key;
}

absl::StatusOr<std::unique_ptr<BenchDb>> BenchDb::Open(const std::string& filter,
                                                       const std::string& path,
                                                       const WorkloadConfig& config,
                                                       rocksdb::Env* env) {
  EnsureRocksDbFilterPoliciesRegistered();
  std::shared_ptr<const rocksdb::FilterPolicy> policy;
  if (filter != "none") {
    rocksdb::ConfigOptions strict;
    strict.input_strings_escaped = false;
    strict.ignore_unknown_options = false;
    strict.ignore_unsupported_options = false;
    rocksdb::Status s = rocksdb::FilterPolicy::CreateFromString(strict, filter, &policy);
    if (!s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("--filter '%s' did not resolve: %s", filter, s.ToString()));
    }
    if (policy == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrFormat("--filter '%s' resolved to no filter; use 'none' for that", filter));
    }
  }
  auto db = std::unique_ptr<BenchDb>(new BenchDb());
  db->config_ = config;

  rocksdb::BlockBasedTableOptions table;
  table.filter_policy = policy;
  table.block_cache = rocksdb::NewLRUCache(static_cast<size_t>(config.cache_size));
  if (config.partition_index_and_filters) {
    table.partition_filters = true;
    table.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
  }
  rocksdb::Options& options = db->options_;
  options.create_if_missing = true;
  if (env != nullptr) options.env = env;
  options.statistics = rocksdb::CreateDBStatistics();
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  options.IncreaseParallelism(std::max(2u, std::thread::hardware_concurrency()));

  rocksdb::Status s = OpenDb(options, path, &db->db_);
  if (!s.ok()) return FromRocksDb(s, "opening " + path);

  // Belt and braces: the policy in force is the one asked for.
  const auto* in_force = db->db_->GetOptions().table_factory
                             ->GetOptions<rocksdb::BlockBasedTableOptions>();
  const bool has_filter = in_force != nullptr && in_force->filter_policy != nullptr;
  if (has_filter != (policy != nullptr)) {
    return absl::InternalError(absl::StrFormat("filter '%s' is not in force", filter));
  }
  return db;
}

BenchDb::~BenchDb() {
  // Nothing is left to report to: a run that failed has said so already, and
  // Close only repeats the DB's background error then.
  if (db_ != nullptr) db_->Close().PermitUncheckedError();
}

std::string BenchDb::StatisticsDump() const { return options_.statistics->ToString(); }

absl::StatusOr<BenchmarkResult> BenchDb::Run(const std::string& benchmark) {
  const BenchmarkSpec* spec = FindBenchmark(benchmark);
  if (spec == nullptr) return UnknownBenchmarkError(benchmark);
  absl::StatusOr<BenchmarkResult> result =
      spec->op == BenchmarkSpec::Op::kFill ? Fill(*spec) : Read(*spec);
  if (!result.ok()) return result;
  absl::StatusOr<double> bytes_per_key = FilterBytesPerKey();
  if (!bytes_per_key.ok()) return bytes_per_key.status();
  result->filter_bytes_per_key = *bytes_per_key;
  return result;
}

absl::StatusOr<BenchmarkResult> BenchDb::Fill(const BenchmarkSpec& spec) {
  // Every key is written once: fillrandom uses a random permutation (stock
  // db_bench draws with replacement, leaving ~37% of keys unwritten).
  const std::string name(spec.name);
  std::vector<uint64_t> order(static_cast<size_t>(config_.num));
  std::iota(order.begin(), order.end(), 0);
  if (!spec.sequential) std::shuffle(order.begin(), order.end(), std::mt19937_64(config_.seed));
  const std::string value(static_cast<size_t>(config_.value_size), 'v');
  constexpr size_t kWriteBatch = 100;

  const auto start = Clock::now();
  rocksdb::WriteBatch batch;
  for (size_t i = 0; i < order.size(); ++i) {
    batch.Put(MakeKey(order[i], config_.key_size), value);
    if (batch.Count() == kWriteBatch || i + 1 == order.size()) {
      rocksdb::Status s = db_->Write(rocksdb::WriteOptions(), &batch);
      if (!s.ok()) return OpFailed(name, "Write", s);
      batch.Clear();
    }
    Progress(name, static_cast<int64_t>(i + 1), config_.num);
  }
  rocksdb::Status s = db_->Flush(rocksdb::FlushOptions());
  if (!s.ok()) return OpFailed(name, "Flush", s);
  if (config_.compact_after_fill) {
    std::fprintf(stderr, "... %s: compacting\n", name.c_str());
    s = db_->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr);
    if (!s.ok()) return OpFailed(name, "CompactRange", s);
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
  std::atomic<uint64_t> data_block_reads{0};
  FirstError error;
};

void BenchDb::ReadThread(const BenchmarkSpec& spec, int t, int threads, int64_t reads,
                         ReadTotals* totals) {
  const std::string name(spec.name);
  const int key_size = config_.key_size + (spec.missing ? 1 : 0);
  const size_t batch = spec.multi ? static_cast<size_t>(std::max(1, config_.batch_size)) : 1;
  // OK is found, NotFound an ordinary miss, anything else fails the benchmark.
  int64_t my_found = 0;
  auto count = [&](const rocksdb::Status& s, const char* op) {
    if (s.ok()) {
      ++my_found;
    } else if (!s.IsNotFound()) {
      totals->error.Record(name, op, s);
    }
  };
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
  rocksdb::get_perf_context()->Reset();
  std::mt19937_64 rng(config_.seed * 7919 + static_cast<uint64_t>(t));
  std::uniform_int_distribution<uint64_t> pick(0, static_cast<uint64_t>(config_.num - 1));
  const int64_t my_reads = reads / threads + (t < reads % threads ? 1 : 0);
  std::vector<std::string> keys(batch);
  std::vector<rocksdb::Slice> slices(batch);
  std::vector<rocksdb::PinnableSlice> values(batch);
  std::vector<rocksdb::Status> statuses(batch);
  std::string value;
  for (int64_t done = 0; done < my_reads && !totals->error.failed();) {
    const size_t n = std::min<int64_t>(static_cast<int64_t>(batch), my_reads - done);
    for (size_t i = 0; i < n; ++i) {
      keys[i] = MakeKey(pick(rng), key_size);
      slices[i] = keys[i];
    }
    if (spec.multi) {
      db_->MultiGet(rocksdb::ReadOptions(), db_->DefaultColumnFamily(), n, slices.data(),
                    values.data(), statuses.data());
      for (size_t i = 0; i < n; ++i) {
        count(statuses[i], "MultiGet");
        values[i].Reset();
      }
    } else {
      count(db_->Get(rocksdb::ReadOptions(), slices[0], &value), "Get");
    }
    done += static_cast<int64_t>(n);
    if (t == 0) Progress(name, done * threads, reads);
  }
  const rocksdb::PerfContext& perf = *rocksdb::get_perf_context();
  totals->data_block_reads +=
      perf.block_read_count - perf.index_block_read_count - perf.filter_block_read_count;
  totals->found += my_found;
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
}

absl::StatusOr<BenchmarkResult> BenchDb::Read(const BenchmarkSpec& spec) {
  const int64_t reads = config_.reads >= 0 ? config_.reads : config_.num;
  const int threads = std::max(1, config_.threads);
  rocksdb::Statistics& stats = *options_.statistics;
  const uint64_t useful0 = stats.getTickerCount(rocksdb::BLOOM_FILTER_USEFUL);
  const uint64_t positive0 = stats.getTickerCount(rocksdb::BLOOM_FILTER_FULL_POSITIVE);
  const uint64_t true0 = stats.getTickerCount(rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE);

  ReadTotals totals;
  const auto start = Clock::now();
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) {
    pool.emplace_back(&BenchDb::ReadThread, this, std::cref(spec), t, threads, reads, &totals);
  }
  ReadThread(spec, 0, threads, reads, &totals);
  for (std::thread& th : pool) th.join();
  if (totals.error.failed()) return totals.error.status();

  BenchmarkResult result;
  result.name = std::string(spec.name);
  result.is_read = true;
  result.ops = reads;
  result.seconds = SecondsSince(start);
  result.found = totals.found;
  result.filter_useful = stats.getTickerCount(rocksdb::BLOOM_FILTER_USEFUL) - useful0;
  result.filter_positive = stats.getTickerCount(rocksdb::BLOOM_FILTER_FULL_POSITIVE) - positive0;
  result.filter_true_positive =
      stats.getTickerCount(rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE) - true0;
  result.data_block_reads = totals.data_block_reads;
  return result;
}

absl::StatusOr<double> BenchDb::FilterBytesPerKey() {
  rocksdb::TablePropertiesCollection tables;
  rocksdb::Status s = db_->GetPropertiesOfAllTables(&tables);
  if (!s.ok()) return FromRocksDb(s, "reading table properties");
  uint64_t filter_bytes = 0, entries = 0;
  for (const auto& [file, props] : tables) {
    filter_bytes += props->filter_size;
    entries += props->num_entries;
  }
  return entries ? static_cast<double>(filter_bytes) / entries : 0;
}

}  // namespace sstfilter::db_bench
