// sstfilter_census_cost: what the level census listener (optimize_levels'
// view of the tree, table/census/census_listener.h) costs against the flushes
// and compactions it rides on, in a DB of many small tables.
//
//   sstfilter_census_cost --num=2500000 --target_file_size=16384
//
// Fills a leveled RocksDB with random keys (small memtables and tables, so
// the tree holds tens of thousands of tables), then writes --measure_num
// more while timing each listener callback, and prints per event: the
// listener's time, the flush or compaction's own time (RocksDB's
// CompactionJobStats::elapsed_micros; a flush: from OnFlushBegin to
// OnFlushCompleted), the live tables then, and the ratio of the two sums.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <random>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_format.h"
#include "rocksdb/db.h"
#include "rocksdb/listener.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "table/census/census_listener.h"
#include "table/census/open_db.h"
#include "table/rocksdb/registration.h"

ABSL_FLAG(int64_t, num, 2500000, "keys written before the measured phase");
ABSL_FLAG(int64_t, measure_num, 300000, "keys written while the listener is timed");
ABSL_FLAG(int64_t, target_file_size, 16 << 10, "table file bytes (small: many tables)");
ABSL_FLAG(int64_t, write_buffer_size, 256 << 10, "memtable bytes");
ABSL_FLAG(std::string, db, "", "DB directory (default: a temporary one, removed after)");

namespace sstfilter {
namespace {

using Clock = std::chrono::steady_clock;

double MicrosSince(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// The census listener, each callback timed, and the jobs' own times.
class TimedCensus final : public rocksdb::EventListener {
 public:
  const char* Name() const override { return LevelCensusListener::kClassName(); }
  std::atomic<bool> measuring{false};

  void OnFlushBegin(rocksdb::DB* db, const rocksdb::FlushJobInfo& info) override {
    const auto start = Clock::now();
    census_.OnFlushBegin(db, info);
    Add(MicrosSince(start), 0);
    std::lock_guard<std::mutex> lock(mu_);
    flush_start_ = Clock::now();
  }
  void OnFlushCompleted(rocksdb::DB* db, const rocksdb::FlushJobInfo& info) override {
    double job;
    {
      std::lock_guard<std::mutex> lock(mu_);
      job = MicrosSince(flush_start_);
    }
    const auto start = Clock::now();
    census_.OnFlushCompleted(db, info);
    Add(MicrosSince(start), job);
  }
  void OnCompactionBegin(rocksdb::DB* db, const rocksdb::CompactionJobInfo& info) override {
    const auto start = Clock::now();
    census_.OnCompactionBegin(db, info);
    Add(MicrosSince(start), 0);
  }
  void OnCompactionCompleted(rocksdb::DB* db, const rocksdb::CompactionJobInfo& info) override {
    const auto start = Clock::now();
    census_.OnCompactionCompleted(db, info);
    Add(MicrosSince(start), static_cast<double>(info.stats.elapsed_micros));
  }
  void OnTableFileCreationStarted(const rocksdb::TableFileCreationBriefInfo& info) override {
    census_.OnTableFileCreationStarted(info);
  }
  void OnTableFileCreated(const rocksdb::TableFileCreationInfo& info) override {
    census_.OnTableFileCreated(info);
  }

  void Print() const {
    std::lock_guard<std::mutex> lock(mu_);
    std::printf(
        "census: %lld events, %.0f us each on average (max %.0f us); jobs: %lld, %.0f us each "
        "on average; census / jobs = %.3f%%\n",
        static_cast<long long>(events_), events_ ? census_us_ / events_ : 0.0, max_us_,
        static_cast<long long>(jobs_), jobs_ ? job_us_ / jobs_ : 0.0,
        job_us_ > 0 ? 100 * census_us_ / job_us_ : 0.0);
  }

 private:
  void Add(double census_us, double job_us) {
    if (!measuring) return;
    std::lock_guard<std::mutex> lock(mu_);
    ++events_, census_us_ += census_us, max_us_ = std::max(max_us_, census_us);
    if (job_us > 0) ++jobs_, job_us_ += job_us;
  }

  LevelCensusListener census_;
  mutable std::mutex mu_;
  Clock::time_point flush_start_;
  long long events_ = 0, jobs_ = 0;
  double census_us_ = 0, job_us_ = 0, max_us_ = 0;
};

rocksdb::Status Write(rocksdb::DB* db, int64_t n, std::mt19937_64* rng) {
  const std::string value(100, 'v');
  for (int64_t i = 0; i < n; ++i) {
    const std::string key = absl::StrFormat("%016x", (*rng)());
    if (rocksdb::Status s = db->Put(rocksdb::WriteOptions(), key, value); !s.ok()) return s;
  }
  return rocksdb::Status::OK();
}

uint64_t LiveTables(rocksdb::DB* db) {
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  return files.size();
}

int Run() {
  EnsureRocksDbFilterPoliciesRegistered();
  std::string path = absl::GetFlag(FLAGS_db);
  const bool temporary = path.empty();
  if (temporary) {
    path = (std::filesystem::temp_directory_path() / "sstfilter_census_cost").string();
  }
  rocksdb::Options options;
  options.create_if_missing = true;
  options.write_buffer_size = absl::GetFlag(FLAGS_write_buffer_size);
  options.target_file_size_base = absl::GetFlag(FLAGS_target_file_size);
  options.max_bytes_for_level_base = 10 * options.target_file_size_base;
  options.level_compaction_dynamic_level_bytes = true;
  options.compression = rocksdb::kNoCompression;
  options.max_background_jobs = 2;
  // Tens of thousands of tables: a bounded table cache, not one open file each.
  options.max_open_files = 2000;
  auto timed = std::make_shared<TimedCensus>();
  options.listeners.push_back(timed);
  rocksdb::BlockBasedTableOptions table;
  if (!CreateFilterPolicyStrictly("sstfilter.bloom:10:cache_local:optimize_levels",
                                  &table.filter_policy)
           .ok()) {
    return 1;
  }
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  rocksdb::DestroyDB(path, options);
  std::unique_ptr<rocksdb::DB> db;
  if (rocksdb::Status s = OpenDb(options, path, &db); !s.ok()) {
    std::fprintf(stderr, "sstfilter_census_cost: %s\n", s.ToString().c_str());
    return 1;
  }
  std::mt19937_64 rng(7);
  if (rocksdb::Status s = Write(db.get(), absl::GetFlag(FLAGS_num), &rng); !s.ok()) {
    std::fprintf(stderr, "sstfilter_census_cost: writing: %s\n", s.ToString().c_str());
    return 1;
  }
  std::printf("filled: %llu live tables\n", static_cast<unsigned long long>(LiveTables(db.get())));
  timed->measuring = true;
  if (rocksdb::Status s = Write(db.get(), absl::GetFlag(FLAGS_measure_num), &rng); !s.ok()) {
    std::fprintf(stderr, "sstfilter_census_cost: writing: %s\n", s.ToString().c_str());
    return 1;
  }
  timed->measuring = false;
  std::printf("measured: %llu live tables at the end\n",
              static_cast<unsigned long long>(LiveTables(db.get())));
  timed->Print();
  db.reset();
  if (temporary) rocksdb::DestroyDB(path, options);
  return 0;
}

}  // namespace
}  // namespace sstfilter

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  return sstfilter::Run();
}
