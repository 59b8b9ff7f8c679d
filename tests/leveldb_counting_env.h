// A leveldb::Env that counts reads from table files (.ldb, and .sst from
// LevelDB before 1.14): with the block cache off, a Get on an open table
// reads the file only for a data block (LevelDB keeps each open table's
// index and filter in memory, read once when the table is opened).
#ifndef SSTFILTER_TESTS_LEVELDB_COUNTING_ENV_H_
#define SSTFILTER_TESTS_LEVELDB_COUNTING_ENV_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "leveldb/env.h"

namespace sstfilter::testing {

class CountingEnv final : public leveldb::EnvWrapper {
 public:
  CountingEnv() : EnvWrapper(leveldb::Env::Default()) {}

  leveldb::Status NewRandomAccessFile(const std::string& name,
                                      leveldb::RandomAccessFile** result) override {
    leveldb::Status s = target()->NewRandomAccessFile(name, result);
    if (s.ok() && IsTableFile(name)) *result = new CountingFile(*result, &table_reads_);
    return s;
  }

  // Reads from table files since the last ResetCounts.
  uint64_t table_reads() const { return table_reads_.load(); }
  void ResetCounts() { table_reads_ = 0; }

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
      reads_->fetch_add(1);
      return file_->Read(offset, n, result, scratch);
    }

   private:
    const std::unique_ptr<leveldb::RandomAccessFile> file_;
    std::atomic<uint64_t>* const reads_;
  };

  std::atomic<uint64_t> table_reads_{0};
};

}  // namespace sstfilter::testing

#endif  // SSTFILTER_TESTS_LEVELDB_COUNTING_ENV_H_
