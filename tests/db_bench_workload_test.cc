// BenchDb (bench/db_bench/workload.h) on a file system that fails on
// demand: a benchmark whose Write, Flush, Get or MultiGet fails must fail
// with a message naming the benchmark, the operation and RocksDB's status,
// never report timings. NotFound from reads of missing keys is no error.
#include "bench/db_bench/workload.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "db_test_util.h"

namespace sstfilter::db_bench {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

// Which operations fail. Files opened before a flag is set fail too: the
// wrappers look at the flags on every call.
struct Faults {
  std::atomic<bool> wal_writes{false};    // Appends to *.log (the WAL).
  std::atomic<bool> table_writes{false};  // Appends to *.sst.
  std::atomic<bool> table_reads{false};   // Reads of *.sst.
};

rocksdb::IOStatus Injected() { return rocksdb::IOStatus::IOError("injected fault"); }

class FailingWritableFile : public rocksdb::FSWritableFileOwnerWrapper {
 public:
  FailingWritableFile(std::unique_ptr<rocksdb::FSWritableFile> target,
                      const std::atomic<bool>* fail)
      : FSWritableFileOwnerWrapper(std::move(target)), fail_(fail) {}
  rocksdb::IOStatus Append(const rocksdb::Slice& data, const rocksdb::IOOptions& options,
                           rocksdb::IODebugContext* dbg) override {
    return *fail_ ? Injected() : FSWritableFileOwnerWrapper::Append(data, options, dbg);
  }
  rocksdb::IOStatus Append(const rocksdb::Slice& data, const rocksdb::IOOptions& options,
                           const rocksdb::DataVerificationInfo& info,
                           rocksdb::IODebugContext* dbg) override {
    return *fail_ ? Injected() : FSWritableFileOwnerWrapper::Append(data, options, info, dbg);
  }

 private:
  const std::atomic<bool>* fail_;
};

class FailingRandomAccessFile : public rocksdb::FSRandomAccessFileOwnerWrapper {
 public:
  FailingRandomAccessFile(std::unique_ptr<rocksdb::FSRandomAccessFile> target,
                          const std::atomic<bool>* fail)
      : FSRandomAccessFileOwnerWrapper(std::move(target)), fail_(fail) {}
  rocksdb::IOStatus Read(uint64_t offset, size_t n, const rocksdb::IOOptions& options,
                         rocksdb::Slice* result, char* scratch,
                         rocksdb::IODebugContext* dbg) const override {
    return *fail_ ? Injected()
                  : FSRandomAccessFileOwnerWrapper::Read(offset, n, options, result, scratch,
                                                         dbg);
  }
  rocksdb::IOStatus MultiRead(rocksdb::FSReadRequest* reqs, size_t num_reqs,
                              const rocksdb::IOOptions& options,
                              rocksdb::IODebugContext* dbg) override {
    if (!*fail_) return FSRandomAccessFileOwnerWrapper::MultiRead(reqs, num_reqs, options, dbg);
    for (size_t i = 0; i < num_reqs; ++i) reqs[i].status = Injected();
    return rocksdb::IOStatus::OK();
  }

 private:
  const std::atomic<bool>* fail_;
};

class FailingFileSystem : public rocksdb::FileSystemWrapper {
 public:
  explicit FailingFileSystem(Faults* faults)
      : FileSystemWrapper(rocksdb::FileSystem::Default()), faults_(faults) {}
  const char* Name() const override { return "FailingFileSystem"; }

  rocksdb::IOStatus NewWritableFile(const std::string& f, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* r,
                                    rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus s = FileSystemWrapper::NewWritableFile(f, options, r, dbg);
    if (s.ok() && absl::EndsWith(f, ".log")) {
      *r = std::make_unique<FailingWritableFile>(std::move(*r), &faults_->wal_writes);
    } else if (s.ok() && absl::EndsWith(f, ".sst")) {
      *r = std::make_unique<FailingWritableFile>(std::move(*r), &faults_->table_writes);
    }
    return s;
  }
  rocksdb::IOStatus NewRandomAccessFile(const std::string& f,
                                        const rocksdb::FileOptions& options,
                                        std::unique_ptr<rocksdb::FSRandomAccessFile>* r,
                                        rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus s = FileSystemWrapper::NewRandomAccessFile(f, options, r, dbg);
    if (s.ok() && absl::EndsWith(f, ".sst")) {
      *r = std::make_unique<FailingRandomAccessFile>(std::move(*r), &faults_->table_reads);
    }
    return s;
  }

 private:
  Faults* faults_;
};

class BenchDbFaultTest : public ::testing::Test {
 protected:
  BenchDbFaultTest() : env_(rocksdb::NewCompositeEnv(std::make_shared<FailingFileSystem>(&faults_))) {
    config_.num = 2000;
    config_.reads = 200;
    config_.cache_size = 0;  // Every data block read goes to the file.
  }

  std::unique_ptr<BenchDb> Open(const std::string& filter = "sstfilter.bloom:10") {
    absl::StatusOr<std::unique_ptr<BenchDb>> db =
        BenchDb::Open(filter, dir_.path(), config_, env_.get());
    EXPECT_TRUE(db.ok()) << db.status();
    return db.ok() ? *std::move(db) : nullptr;
  }

  Faults faults_;
  std::unique_ptr<rocksdb::Env> env_;
  sstfilter::testing::TempDir dir_;
  WorkloadConfig config_;
};

TEST_F(BenchDbFaultTest, NoFaultsRunEveryBenchmark) {
  std::unique_ptr<BenchDb> db = Open();
  ASSERT_NE(db, nullptr);
  for (const BenchmarkSpec& spec : kBenchmarks) {
    absl::StatusOr<BenchmarkResult> r = db->Run(std::string(spec.name));
    ASSERT_TRUE(r.ok()) << spec.name << ": " << r.status();
    EXPECT_EQ(r->name, spec.name);
    if (spec.op == BenchmarkSpec::Op::kRead) {
      // Missing keys come back NotFound, an ordinary answer.
      EXPECT_EQ(r->found, spec.missing ? 0 : r->ops) << spec.name;
    }
  }
}

TEST_F(BenchDbFaultTest, FailedWriteFailsTheFill) {
  std::unique_ptr<BenchDb> db = Open();
  ASSERT_NE(db, nullptr);
  faults_.wal_writes = true;
  absl::StatusOr<BenchmarkResult> r = db->Run("fillrandom");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()),
              AllOf(HasSubstr("fillrandom: Write failed: IO error"), HasSubstr("injected fault")));
}

TEST_F(BenchDbFaultTest, FailedFlushFailsTheFill) {
  std::unique_ptr<BenchDb> db = Open();
  ASSERT_NE(db, nullptr);
  faults_.table_writes = true;
  absl::StatusOr<BenchmarkResult> r = db->Run("fillseq");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()),
              AllOf(HasSubstr("fillseq: Flush failed: IO error"), HasSubstr("injected fault")));
}

TEST_F(BenchDbFaultTest, FailedGetFailsTheRead) {
  std::unique_ptr<BenchDb> db = Open();
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(db->Run("fillrandom").ok());
  faults_.table_reads = true;
  absl::StatusOr<BenchmarkResult> r = db->Run("readrandom");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()),
              AllOf(HasSubstr("readrandom: Get failed: IO error"), HasSubstr("injected fault")));
}

TEST_F(BenchDbFaultTest, FailedMultiGetFailsTheRead) {
  config_.threads = 2;
  std::unique_ptr<BenchDb> db = Open();
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(db->Run("fillseq").ok());
  faults_.table_reads = true;
  absl::StatusOr<BenchmarkResult> r = db->Run("multireadrandom");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()),
              AllOf(HasSubstr("multireadrandom: MultiGet failed: IO error"),
                    HasSubstr("injected fault")));
}

// Partitioned filters and indexes in a block cache that holds none of them
// (capacity 0; the top level stays pinned): every Get reads a filter
// partition from the file for each table it checks, and a Get whose
// filter says "may match" reads an index partition too. Each kind is
// counted apart from data blocks.
TEST(RocksDbBenchDb, CountsFilterAndIndexPartitionReadsApart) {
  sstfilter::testing::TempDir dir;
  WorkloadConfig config;
  config.num = 20000;
  config.reads = 2000;
  config.cache_size = 0;
  config.partition_index_and_filters = true;
  config.cache_index_and_filter_blocks = true;
  config.compact_after_fill = true;  // One table: one filter check per Get.
  absl::StatusOr<std::unique_ptr<BenchDb>> db =
      BenchDb::Open("sstfilter.bloom:10:cache_local", dir.path(), config);
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_TRUE((*db)->Run("fillrandom").ok());
  absl::StatusOr<BenchmarkResult> present = (*db)->Run("readrandom");
  ASSERT_TRUE(present.ok()) << present.status();
  EXPECT_EQ(present->found, config.reads);
  EXPECT_NEAR(present->filter_block_reads_per_op(), 1.0, 0.01);
  EXPECT_NEAR(present->index_block_reads_per_op(), 1.0, 0.01);
  EXPECT_NEAR(present->data_block_reads_per_op(), 1.0, 0.01);
  absl::StatusOr<BenchmarkResult> absent = (*db)->Run("readmissing");
  ASSERT_TRUE(absent.ok()) << absent.status();
  EXPECT_NEAR(absent->filter_block_reads_per_op(), 1.0, 0.01);
  // Only the false positives go on to the index and the data.
  EXPECT_LT(absent->index_block_reads_per_op(), 0.05);
  EXPECT_DOUBLE_EQ(absent->index_block_reads_per_op(), absent->data_block_reads_per_op());
}

// Universal compaction reports a compaction due once its sorted runs reach
// the trigger (RocksDB's default, 4), also when its picker then declines
// every run: four flushes, each a quarter of the one before, leave one due
// that never starts (each run outweighs all newer ones, and together they
// are far under the size amplification limit). WaitForCompactions returns
// all the same, the four runs still there.
TEST(RocksDbBenchDb, WaitForCompactionsReturnsWhenUniversalDeclinesTheDueCompaction) {
  sstfilter::testing::TempDir dir;
  WorkloadConfig config;
  config.shape.compaction_style = "universal";
  absl::StatusOr<std::unique_ptr<BenchDb>> db =
      BenchDb::Open("sstfilter.bloom:10:cache_local", dir.path(), config);
  ASSERT_TRUE(db.ok()) << db.status();
  Engine& engine = (*db)->engine();
  int next = 0;
  for (int keys : {32000, 8000, 2000, 500}) {
    std::vector<std::string> batch;
    for (int i = 0; i < keys; ++i) batch.push_back(absl::StrFormat("key%08d", next++));
    ASSERT_TRUE(engine.Write(batch, std::string(100, 'v')).ok());
    ASSERT_TRUE(engine.Flush().ok());
  }
  ASSERT_TRUE(engine.WaitForCompactions().ok());
  absl::StatusOr<FilterSizes> sizes = engine.LiveFilterSizes();
  ASSERT_TRUE(sizes.ok()) << sizes.status();
  uint64_t tables = 0;
  for (const LevelTables& level : sizes->by_level) tables += level.files;
  EXPECT_EQ(tables, 4u) << "a compaction ran: the case no longer holds one due and declined";
}

// The same workload on LevelDB: every written key found, absent keys
// skipped by the filter (no block cache: every data block needed is read),
// and multireadrandom refused (LevelDB has no MultiGet).
TEST(LevelDbBenchDb, RunsTheWorkloadAndRefusesMultiGet) {
  sstfilter::testing::TempDir dir;
  WorkloadConfig config;
  config.engine = EngineKind::kLevelDb;
  config.num = 5000;
  config.cache_size = 0;
  absl::StatusOr<std::unique_ptr<BenchDb>> db = BenchDb::Open("leveldb:10", dir.path(), config);
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_TRUE((*db)->Run("fillrandom").ok());
  absl::StatusOr<BenchmarkResult> present = (*db)->Run("readrandom");
  ASSERT_TRUE(present.ok()) << present.status();
  EXPECT_EQ(present->found, config.num);
  EXPECT_GT(present->data_block_reads_per_op(), 0.9);
  absl::StatusOr<BenchmarkResult> absent = (*db)->Run("readmissing");
  ASSERT_TRUE(absent.ok()) << absent.status();
  EXPECT_EQ(absent->found, 0);
  // One filter check per absent key (one table), except a key past the
  // table's last (the missing key after the largest written one, drawn
  // with probability 1/num per read): no table is asked.
  EXPECT_LE(absent->absent_checks(), static_cast<uint64_t>(config.num));
  EXPECT_GE(absent->absent_checks(), static_cast<uint64_t>(config.num) - 5);
  EXPECT_LT(absent->data_block_reads_per_op(), 0.05);
  EXPECT_GT(absent->filter_bytes_per_key(), 1.0);
  absl::StatusOr<BenchmarkResult> multi = (*db)->Run("multireadrandom");
  ASSERT_FALSE(multi.ok());
  EXPECT_THAT(std::string(multi.status().message()), HasSubstr("multireadrandom: LevelDB has no MultiGet (a loop of Gets "));
}

TEST(BenchmarkTable, NamesAndLookup) {
  EXPECT_EQ(BenchmarkNames(), "fillrandom, fillseq, readrandom, readmissing, multireadrandom, multireadmissing");
  ASSERT_NE(FindBenchmark("readmissing"), nullptr);
  EXPECT_TRUE(FindBenchmark("readmissing")->missing);
  EXPECT_EQ(FindBenchmark("readsometimes"), nullptr);
  EXPECT_THAT(std::string(UnknownBenchmarkError("readsometimes").message()),
              HasSubstr("unknown benchmark 'readsometimes'; expected one of fillrandom, "));
}

}  // namespace
}  // namespace sstfilter::db_bench
