// A leveldb::Env that counts reads from table files (.ldb, and .sst from
// LevelDB before 1.14), in total and per calling thread. LevelDB keeps each
// open table's index and filter blocks in memory (read once, when the table
// enters its table cache), so on a table already open a Get reads the file
// only for a data block that the block cache does not hold: with the block
// cache off, table reads by a Get are its data-block reads; with a block
// cache, its data-block cache misses. Compactions read table files too, on
// LevelDB's background thread: the per-thread count leaves them out.
#ifndef SSTFILTER_BENCH_DB_BENCH_LEVELDB_COUNTING_ENV_H_
#define SSTFILTER_BENCH_DB_BENCH_LEVELDB_COUNTING_ENV_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "leveldb/env.h"

namespace sstfilter {

class LevelDbCountingEnv final : public leveldb::EnvWrapper {
 public:
  LevelDbCountingEnv() : EnvWrapper(leveldb::Env::Default()) {}

  leveldb::Status NewRandomAccessFile(const std::string& name,
                                      leveldb::RandomAccessFile** result) override {
    leveldb::Status s = target()->NewRandomAccessFile(name, result);
    if (s.ok() && IsTableFile(name)) *result = new CountingFile(*result, &table_reads_);
    return s;
  }

  // Reads from table files, by any thread, since the last ResetCounts.
  uint64_t table_reads() const { return table_reads_.load(); }
  void ResetCounts() { table_reads_ = 0; }

  // Reads from table files made by the calling thread, through any
  // LevelDbCountingEnv, since the thread started (never reset: take
  // differences).
  static uint64_t ThreadTableReads() { return thread_table_reads_; }

 private:
  static bool IsTableFile(const std::string& name) {
    return absl::EndsWith(name, ".ldb") || absl::EndsWith(name, ".sst");
  }

  class CountingFile final : public leveldb::RandomAccessFile {
   public:
    CountingFile(leveldb::RandomAccessFile* file, std::atomic<uint64_t>* reads)
        : file_(file), reads_(reads) {}
    leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result,
                         char* scratch) const override {
      reads_->fetch_add(1, std::memory_order_relaxed);
      ++thread_table_reads_;
      return file_->Read(offset, n, result, scratch);
    }

   private:
    const std::unique_ptr<leveldb::RandomAccessFile> file_;
    std::atomic<uint64_t>* const reads_;
  };

  std::atomic<uint64_t> table_reads_{0};
  static inline thread_local uint64_t thread_table_reads_ = 0;
};

}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_BENCH_LEVELDB_COUNTING_ENV_H_
