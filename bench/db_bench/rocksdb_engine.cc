#include "bench/db_bench/rocksdb_engine.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "rocksdb/cache.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/metadata.h"
#include "rocksdb/perf_context.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/write_batch.h"
#include "table/census/census_listener.h"
#include "table/census/declined_compaction.h"
#include "table/census/open_db.h"
#include "table/rocksdb/registration.h"

namespace sstfilter::db_bench {
namespace {

// How long a compaction may stay queued with nothing running before the
// wait takes it for one RocksDB declined (declined_compaction.h).
constexpr std::chrono::seconds kUnpicked{1};

absl::Status FromRocksDb(const rocksdb::Status& s) {
  return s.ok() ? absl::OkStatus() : absl::InternalError(s.ToString());
}

// OK: found; NotFound: false; anything else: the error.
absl::StatusOr<bool> Answer(const rocksdb::Status& s) {
  if (s.ok()) return true;
  if (s.IsNotFound()) return false;
  return absl::InternalError(s.ToString());
}

absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> ResolvePolicy(
    const std::string& filter) {
  if (filter == "none") return nullptr;
  if (absl::StartsWith(filter, "leveldb:")) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--filter '%s' is LevelDB's built-in policy; it needs --engine=leveldb", filter));
  }
  std::shared_ptr<const rocksdb::FilterPolicy> policy;
  rocksdb::Status s = CreateFilterPolicyStrictly(filter, &policy);
  if (!s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("--filter '%s' did not resolve: %s", filter, s.ToString()));
  }
  if (policy == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrFormat("--filter '%s' resolved to no filter; use 'none' for that", filter));
  }
  return policy;
}

}  // namespace

absl::StatusOr<rocksdb::CompressionType> CompressionNamed(std::string_view name) {
  if (name == "none") return rocksdb::kNoCompression;
  if (name == "snappy") return rocksdb::kSnappyCompression;
  if (name == "lz4") return rocksdb::kLZ4Compression;
  if (name == "zstd") return rocksdb::kZSTD;
  return absl::InvalidArgumentError(absl::StrFormat(
      "--compression_type=%s: expected none, snappy, lz4 or zstd", name));
}

absl::StatusOr<rocksdb::CompactionStyle> CompactionStyleNamed(std::string_view name) {
  if (name == "level") return rocksdb::kCompactionStyleLevel;
  if (name == "universal") return rocksdb::kCompactionStyleUniversal;
  if (name == "fifo") return rocksdb::kCompactionStyleFIFO;
  return absl::InvalidArgumentError(
      absl::StrFormat("compaction style '%s': expected level, universal or fifo", name));
}

namespace {

void ApplyShape(const LsmShape& shape, rocksdb::Options* options) {
  if (shape.write_buffer_size) {
    options->write_buffer_size = static_cast<size_t>(*shape.write_buffer_size);
  }
  if (shape.target_file_size_base) {
    options->target_file_size_base = static_cast<uint64_t>(*shape.target_file_size_base);
  }
  if (shape.max_bytes_for_level_base) {
    options->max_bytes_for_level_base = static_cast<uint64_t>(*shape.max_bytes_for_level_base);
  }
  if (shape.max_bytes_for_level_multiplier) {
    options->max_bytes_for_level_multiplier = *shape.max_bytes_for_level_multiplier;
  }
  if (shape.level_compaction_dynamic_level_bytes) {
    options->level_compaction_dynamic_level_bytes = *shape.level_compaction_dynamic_level_bytes;
  }
  if (shape.compression_type) {
    options->compression = *CompressionNamed(*shape.compression_type);
  }
  if (shape.compaction_style) {
    options->compaction_style = *CompactionStyleNamed(*shape.compaction_style);
  }
}

// What the reader threads add up when they finish (their perf contexts).
class ReaderCounts {
 public:
  void Add(const rocksdb::PerfContext& perf) {
    std::lock_guard<std::mutex> lock(mu_);
    counts_.data_block_reads +=
        perf.block_read_count - perf.index_block_read_count - perf.filter_block_read_count;
    counts_.filter_block_reads += perf.filter_block_read_count;
    counts_.index_block_reads += perf.index_block_read_count;
    if (perf.level_to_perf_context == nullptr) return;
    for (const auto& [level, by_level] : *perf.level_to_perf_context) {
      if (counts_.filter_by_level.size() <= level) {
        counts_.filter_by_level.resize(level + 1);
        counts_.block_misses_by_level.resize(level + 1);
      }
      counts_.filter_by_level[level] += {by_level.bloom_filter_useful,
                                         by_level.bloom_filter_full_positive,
                                         by_level.bloom_filter_full_true_positive};
      counts_.block_misses_by_level[level] += by_level.block_cache_miss_count;
    }
  }
  // The counts other than the whole-DB filter tickers.
  EngineCounters Get() const {
    std::lock_guard<std::mutex> lock(mu_);
    return counts_;
  }

 private:
  mutable std::mutex mu_;
  EngineCounters counts_;
};

class RocksDbReader final : public EngineReader {
 public:
  RocksDbReader(rocksdb::DB* db, ReaderCounts* counts) : db_(db), counts_(counts) {
    rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
    rocksdb::get_perf_context()->Reset();
    rocksdb::get_perf_context()->EnablePerLevelPerfContext();
  }
  ~RocksDbReader() override {
    rocksdb::PerfContext& perf = *rocksdb::get_perf_context();
    counts_->Add(perf);
    perf.ClearPerLevelPerfContext();
    perf.DisablePerLevelPerfContext();
    rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
  }

  absl::StatusOr<bool> Get(const std::string& key) override {
    return Answer(db_->Get(rocksdb::ReadOptions(), key, &value_));
  }

  void MultiGet(const std::vector<std::string>& keys, size_t n,
                absl::StatusOr<bool>* results) override {
    slices_.resize(n);
    values_.resize(n);
    statuses_.resize(n);
    for (size_t i = 0; i < n; ++i) slices_[i] = keys[i];
    db_->MultiGet(rocksdb::ReadOptions(), db_->DefaultColumnFamily(), n, slices_.data(),
                  values_.data(), statuses_.data());
    for (size_t i = 0; i < n; ++i) {
      results[i] = Answer(statuses_[i]);
      values_[i].Reset();
    }
  }

 private:
  rocksdb::DB* const db_;
  ReaderCounts* const counts_;
  std::string value_;
  std::vector<rocksdb::Slice> slices_;
  std::vector<rocksdb::PinnableSlice> values_;
  std::vector<rocksdb::Status> statuses_;
};

class RocksDbEngine final : public Engine {
 public:
  ~RocksDbEngine() override {
    // Nothing is left to report to: a run that failed has said so already,
    // and Close only repeats the DB's background error then.
    if (db_ != nullptr) db_->Close().PermitUncheckedError();
  }

  absl::Status Open(const EngineOptions& options, rocksdb::Env* env) {
    absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> policy =
        ResolvePolicy(options.filter);
    if (!policy.ok()) return policy.status();
    rocksdb::BlockBasedTableOptions table;
    table.filter_policy = *policy;
    table.block_cache = rocksdb::NewLRUCache(static_cast<size_t>(options.cache_size));
    if (options.partition_index_and_filters) {
      table.partition_filters = true;
      table.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
    }
    table.cache_index_and_filter_blocks = options.cache_index_and_filter_blocks;
    options_.use_direct_reads = options.use_direct_reads;
    options_.optimize_filters_for_hits = options.optimize_filters_for_hits;
    options_.create_if_missing = !options.use_existing_db;
    if (env != nullptr) options_.env = env;
    options_.statistics = rocksdb::CreateDBStatistics();
    // What sstfilter.bloom:...:optimize_levels needs; idle for other policies.
    census_ = std::static_pointer_cast<LevelCensusListener>(NewLevelCensusListener());
    options_.listeners.push_back(census_);
    path_ = options.path;
    options_.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    options_.IncreaseParallelism(std::max(2u, std::thread::hardware_concurrency()));
    ApplyShape(options.shape, &options_);
    if (!options.use_existing_db) {
      rocksdb::Status s = rocksdb::DestroyDB(options.path, options_);
      if (!s.ok()) return FromRocksDb(s);
    }
    rocksdb::Status s = OpenDb(options_, options.path, &db_);
    if (!s.ok()) return absl::InternalError(
        absl::StrFormat("opening %s: %s", options.path, s.ToString()));
    // Belt and braces: the policy in force is the one asked for.
    const auto* in_force =
        db_->GetOptions().table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
    const bool has_filter = in_force != nullptr && in_force->filter_policy != nullptr;
    if (has_filter != (*policy != nullptr)) {
      return absl::InternalError(absl::StrFormat("filter '%s' is not in force", options.filter));
    }
    return absl::OkStatus();
  }

  absl::Status Write(const std::vector<std::string>& keys, std::string_view value) override {
    rocksdb::WriteBatch batch;
    for (const std::string& key : keys) batch.Put(key, value);
    return FromRocksDb(db_->Write(rocksdb::WriteOptions(), &batch));
  }
  absl::Status Flush() override { return FromRocksDb(db_->Flush(rocksdb::FlushOptions())); }
  // Every table ends up written by a compaction, also when the fill left a
  // single file that a plain CompactRange would only move down: policies
  // that choose by level (ribbonfilter:N builds Bloom filters at flush) then
  // hold the bottommost level's filters of a long-running DB. Optimized: the
  // files a compaction has just written are not compacted again.
  absl::Status CompactAll() override {
    rocksdb::CompactRangeOptions options;
    options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForceOptimized;
    return FromRocksDb(db_->CompactRange(options, nullptr, nullptr));
  }
  absl::Status WaitForCompactions() override {
    DeclinedCompaction declined(kUnpicked);
    for (;;) {
      // Off, RocksDB still reports the compactions due as pending.
      const bool count_pending = auto_compactions_;
      uint64_t errors = 0, flush_pending = 0, flushes = 0, pending = 0, compactions = 0;
      if (!db_->GetIntProperty("rocksdb.background-errors", &errors) ||
          !db_->GetIntProperty("rocksdb.mem-table-flush-pending", &flush_pending) ||
          !db_->GetIntProperty("rocksdb.num-running-flushes", &flushes) ||
          !db_->GetIntProperty("rocksdb.compaction-pending", &pending) ||
          !db_->GetIntProperty("rocksdb.num-running-compactions", &compactions)) {
        return absl::InternalError("RocksDB did not report its background work");
      }
      if (errors > 0) {
        return absl::InternalError(absl::StrFormat("%d background errors", errors));
      }
      if (flush_pending + flushes + (count_pending ? pending : 0) + compactions == 0) {
        return absl::OkStatus();
      }
      if (declined.Declined(flush_pending + flushes + compactions > 0, pending > 0)) {
        return absl::OkStatus();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  absl::Status SetAutoCompactions(bool on) override {
    rocksdb::Status s =
        db_->SetOptions({{"disable_auto_compactions", on ? "false" : "true"}});
    if (s.ok()) auto_compactions_ = on;
    return FromRocksDb(s);
  }
  bool SupportsMultiGet() const override { return true; }
  std::unique_ptr<EngineReader> NewReader() override {
    return std::make_unique<RocksDbReader>(db_.get(), &reader_counts_);
  }

  EngineCounters Counters() const override {
    const rocksdb::Statistics& stats = *options_.statistics;
    EngineCounters c = reader_counts_.Get();
    c.filter.useful = stats.getTickerCount(rocksdb::BLOOM_FILTER_USEFUL);
    c.filter.positive = stats.getTickerCount(rocksdb::BLOOM_FILTER_FULL_POSITIVE);
    c.filter.true_positive = stats.getTickerCount(rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE);
    return c;
  }

  absl::StatusOr<FilterSizes> LiveFilterSizes() override {
    rocksdb::TablePropertiesCollection tables;
    rocksdb::Status s = db_->GetPropertiesOfAllTables(&tables);
    if (!s.ok()) return absl::InternalError("reading table properties: " + s.ToString());
    std::vector<rocksdb::LiveFileMetaData> files;
    db_->GetLiveFilesMetaData(&files);
    std::map<std::string, int> level_of;  // By path, as the properties are keyed.
    for (const rocksdb::LiveFileMetaData& f : files) level_of[f.db_path + f.name] = f.level;
    FilterSizes sizes;
    for (const auto& [file, props] : tables) {
      sizes.bytes += props->filter_size;
      sizes.keys += props->num_entries;
      const auto level = level_of.find(file);
      if (level == level_of.end()) continue;  // Compacted away between the two calls.
      const auto index = static_cast<size_t>(level->second);
      if (sizes.by_level.size() <= index) sizes.by_level.resize(index + 1);
      LevelTables& at = sizes.by_level[index];
      ++at.files;
      at.keys += props->num_entries;
      at.filter_bytes += props->filter_size;
    }
    return sizes;
  }

  std::string StatisticsDump() const override { return options_.statistics->ToString(); }

  void HoldRebuilds(bool hold) override { census_->HoldRebuilds(hold); }

  WrittenBytes Written() const override {
    WrittenBytes written;
    written.flushes = options_.statistics->getTickerCount(rocksdb::FLUSH_WRITE_BYTES);
    written.compactions = options_.statistics->getTickerCount(rocksdb::COMPACT_WRITE_BYTES);
    const LevelCensusListener::Rebuilt rebuilt = census_->RebuiltSoFar(path_);
    written.rebuilt_tables = rebuilt.tables, written.rebuilt = rebuilt.bytes;
    return written;
  }

 private:
  rocksdb::Options options_;
  std::shared_ptr<LevelCensusListener> census_;  // Also in options_.listeners.
  std::string path_;
  bool auto_compactions_ = true;
  ReaderCounts reader_counts_;
  std::unique_ptr<rocksdb::DB> db_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Engine>> OpenRocksDbEngine(const EngineOptions& options,
                                                          rocksdb::Env* env) {
  auto engine = std::make_unique<RocksDbEngine>();
  if (absl::Status s = engine->Open(options, env); !s.ok()) return s;
  return engine;
}

}  // namespace sstfilter::db_bench
