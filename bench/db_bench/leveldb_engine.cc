#include "bench/db_bench/leveldb_engine.h"

#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "bench/db_bench/leveldb_counting_env.h"
#include "bench/db_bench/leveldb_counting_policy.h"
#include "bench/db_bench/leveldb_filter_bytes.h"
#include "leveldb/cache.h"
#include "leveldb/db.h"
#include "leveldb/filter_policy.h"
#include "leveldb/write_batch.h"
#include "table/leveldb/leveldb_filter_policy.h"

namespace sstfilter::db_bench {
namespace {

constexpr char kBuiltinPrefix[] = "leveldb:";
// Bits per key LevelDB's built-in policy is given here (it takes any int,
// and clamps its probe count to 1..30).
constexpr int kMaxBuiltinBitsPerKey = 100;

absl::Status FromLevelDb(const leveldb::Status& s) {
  return s.ok() ? absl::OkStatus() : absl::InternalError(s.ToString());
}

// The policy `filter` names, nullptr for "none".
absl::StatusOr<std::unique_ptr<const leveldb::FilterPolicy>> ResolvePolicy(
    const std::string& filter) {
  if (filter == "none") return nullptr;
  if (absl::StartsWith(filter, kBuiltinPrefix)) {
    int bits = 0;
    if (!absl::SimpleAtoi(filter.substr(sizeof(kBuiltinPrefix) - 1), &bits) || bits < 1 ||
        bits > kMaxBuiltinBitsPerKey) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "--filter '%s': LevelDB's built-in policy takes whole bits per key, 1..%d", filter,
          kMaxBuiltinBitsPerKey));
    }
    return std::unique_ptr<const leveldb::FilterPolicy>(leveldb::NewBloomFilterPolicy(bits));
  }
  if (absl::StartsWith(filter, "sstfilter.")) {
    auto policy = NewLevelDbFilterPolicyFromString(filter);
    if (!policy.ok()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("--filter '%s': %s", filter, policy.status().message()));
    }
    return policy;
  }
  return absl::InvalidArgumentError(absl::StrFormat(
      "--filter '%s' is not a LevelDB filter policy; --engine=leveldb takes "
      "leveldb:<bits_per_key>, sstfilter.bloom[:<bits_per_key>[:<encoding>]] or none",
      filter));
}

class LevelDbReader final : public EngineReader {
 public:
  LevelDbReader(leveldb::DB* db, std::atomic<uint64_t>* data_block_reads,
                std::atomic<uint64_t>* true_positives)
      : db_(db),
        data_block_reads_(data_block_reads),
        true_positives_(true_positives),
        reads_at_start_(LevelDbCountingEnv::ThreadTableReads()) {}
  ~LevelDbReader() override {
    *data_block_reads_ += LevelDbCountingEnv::ThreadTableReads() - reads_at_start_;
    *true_positives_ += my_true_positives_;
  }

  absl::StatusOr<bool> Get(const std::string& key) override {
    const uint64_t positives = LevelDbCountingPolicy::ThreadPositives();
    const leveldb::Status s = db_->Get(leveldb::ReadOptions(), key, &value_);
    if (s.ok()) {
      if (LevelDbCountingPolicy::ThreadPositives() != positives) ++my_true_positives_;
      return true;
    }
    if (s.IsNotFound()) return false;
    return absl::InternalError(s.ToString());
  }

  void MultiGet(const std::vector<std::string>&, size_t n,
                absl::StatusOr<bool>* results) override {
    for (size_t i = 0; i < n; ++i) {
      results[i] = absl::UnimplementedError("LevelDB has no MultiGet");
    }
  }

 private:
  leveldb::DB* const db_;
  std::atomic<uint64_t>* const data_block_reads_;
  std::atomic<uint64_t>* const true_positives_;
  const uint64_t reads_at_start_;
  uint64_t my_true_positives_ = 0;
  std::string value_;
};

class LevelDbEngine final : public Engine {
 public:
  absl::Status Open(const EngineOptions& options) {
    absl::StatusOr<std::unique_ptr<const leveldb::FilterPolicy>> policy =
        ResolvePolicy(options.filter);
    if (!policy.ok()) return policy.status();
    if (*policy != nullptr) {
      policy_ = std::make_unique<LevelDbCountingPolicy>(*std::move(policy));
    }
    path_ = options.path;
    num_ = options.num;
    cache_.reset(leveldb::NewLRUCache(static_cast<size_t>(options.cache_size)));
    options_.create_if_missing = !options.use_existing_db;
    options_.env = &env_;
    options_.filter_policy = policy_.get();
    options_.block_cache = cache_.get();
    if (!options.use_existing_db) {
      if (absl::Status s = FromLevelDb(leveldb::DestroyDB(path_, options_)); !s.ok()) return s;
    }
    leveldb::DB* db = nullptr;
    const leveldb::Status s = leveldb::DB::Open(options_, path_, &db);
    if (!s.ok()) {
      return absl::InternalError(absl::StrFormat("opening %s: %s", path_, s.ToString()));
    }
    db_.reset(db);
    return absl::OkStatus();
  }

  absl::Status Write(const std::vector<std::string>& keys, std::string_view value) override {
    leveldb::WriteBatch batch;
    for (const std::string& key : keys) batch.Put(key, leveldb::Slice(value.data(), value.size()));
    return FromLevelDb(db_->Write(leveldb::WriteOptions(), &batch));
  }

  // LevelDB has no Flush. CompactRange always writes the memtable to a table
  // first, then compacts only tables overlapping the range: none overlap the
  // empty range ["", ""] (no key is empty here).
  absl::Status Flush() override {
    const leveldb::Slice empty;
    db_->CompactRange(&empty, &empty);
    return BackgroundError();
  }

  absl::Status CompactAll() override {
    db_->CompactRange(nullptr, nullptr);
    return BackgroundError();
  }

  // LevelDB has no way to ask whether a compaction is due or running.
  absl::Status WaitForCompactions() override { return BackgroundError(); }
  absl::Status SetAutoCompactions(bool) override {
    return absl::UnimplementedError("LevelDB cannot turn its compactions off");
  }

  bool SupportsMultiGet() const override { return false; }

  std::unique_ptr<EngineReader> NewReader() override {
    return std::make_unique<LevelDbReader>(db_.get(), &data_block_reads_, &true_positives_);
  }

  EngineCounters Counters() const override {
    EngineCounters c;
    if (policy_ != nullptr) {
      c.filter.useful = policy_->useful();
      c.filter.positive = policy_->positive();
    }
    c.filter.true_positive = true_positives_.load();
    c.data_block_reads = data_block_reads_.load();
    return c;
  }

  // Filter bytes of the live tables, over the keys written (--num: every
  // key is written once; LevelDB keeps no entry counts).
  absl::StatusOr<FilterSizes> LiveFilterSizes() override {
    absl::StatusOr<uint64_t> bytes = LevelDbFilterBytes(*db_, path_);
    if (!bytes.ok()) return bytes.status();
    FilterSizes sizes;
    sizes.bytes = *bytes;
    sizes.keys = static_cast<uint64_t>(std::max<int64_t>(num_, 0));
    return sizes;
  }

  std::string StatisticsDump() const override {
    std::string stats;
    if (!db_->GetProperty("leveldb.stats", &stats)) return "(no leveldb.stats)";
    return stats;
  }

 private:
  // CompactRange returns nothing: a failed flush or compaction leaves a
  // background error, which the next write returns (an empty batch here).
  absl::Status BackgroundError() {
    leveldb::WriteBatch empty;
    return FromLevelDb(db_->Write(leveldb::WriteOptions(), &empty));
  }

  // Declared before db_: the DB is closed first.
  LevelDbCountingEnv env_;
  std::unique_ptr<LevelDbCountingPolicy> policy_;
  std::unique_ptr<leveldb::Cache> cache_;
  leveldb::Options options_;
  std::string path_;
  int64_t num_ = 0;
  std::atomic<uint64_t> data_block_reads_{0};
  std::atomic<uint64_t> true_positives_{0};
  std::unique_ptr<leveldb::DB> db_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Engine>> OpenLevelDbEngine(const EngineOptions& options) {
  auto engine = std::make_unique<LevelDbEngine>();
  if (absl::Status s = engine->Open(options); !s.ok()) return s;
  return engine;
}

}  // namespace sstfilter::db_bench
