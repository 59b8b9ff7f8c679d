// Writing LevelDB table files (.ldb) with libleveldb itself, for the tests of
// the LevelDB table parser and sstfilter_sst's LevelDB path: a leveldb::DB
// in a temporary directory, its memtable compacted into one table.
#ifndef SSTFILTER_TESTS_LDB_TEST_UTIL_H_
#define SSTFILTER_TESTS_LDB_TEST_UTIL_H_

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "filter/encoding_id.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/filter_policy.h"
#include "leveldb/options.h"
#include "leveldb/slice.h"
#include "leveldb/write_batch.h"

namespace sstfilter::testing {

enum class LdbFilter { kBuiltin, kOurs, kNone, kForeign };

struct LdbConfig {
  LdbFilter filter = LdbFilter::kBuiltin;
  EncodingId encoding = kDefaultEncoding;  // Of kOurs.
  bool snappy = true;
  size_t block_size = 4096;  // LevelDB's default.
  size_t value_size = 16;
  // Writes each key this many times, holding a snapshot after each write
  // but the last, so that the table keeps every version.
  int versions = 1;
};

// The policy a table is written with: LevelDB's built-in Bloom policy,
// sstfilter's (table/leveldb/leveldb_filter_policy.h) in config.encoding,
// none (nullptr), or sstfilter's under a name sstfilter does not know.
std::unique_ptr<const leveldb::FilterPolicy> NewLdbPolicy(const LdbConfig& config);

// The policies tables with filters are written with in the parameterised
// tests: LevelDB's built-in one, then ours in every encoding of the list.
struct LdbWriter {
  LdbFilter filter;
  EncodingId encoding;
  std::string name;  // "builtin", or the encoding's name: names the test.
};
std::vector<LdbWriter> AllLdbWriters();

// Writes keys (any order, duplicates allowed) to a LevelDB database in
// db_dir and returns the path of the one table its full compaction leaves.
inline std::string WriteLdbTable(const std::string& db_dir, const std::vector<std::string>& keys,
                                 const LdbConfig& config) {
  std::unique_ptr<const leveldb::FilterPolicy> policy = NewLdbPolicy(config);
  leveldb::Options options;
  options.create_if_missing = true;
  options.error_if_exists = true;
  options.filter_policy = policy.get();
  options.compression = config.snappy ? leveldb::kSnappyCompression : leveldb::kNoCompression;
  options.block_size = config.block_size;
  options.write_buffer_size = 64 << 20;  // One memtable: one table.
  leveldb::DB* raw = nullptr;
  leveldb::Status s = leveldb::DB::Open(options, db_dir, &raw);
  EXPECT_TRUE(s.ok()) << s.ToString();
  if (!s.ok()) return "";
  std::unique_ptr<leveldb::DB> db(raw);
  std::vector<const leveldb::Snapshot*> snapshots;  // Keep every version.
  for (int v = 0; v < config.versions; ++v) {
    leveldb::WriteBatch batch;
    for (const std::string& key : keys) {
      batch.Put(key, std::string(config.value_size, static_cast<char>('a' + v % 26)));
    }
    EXPECT_TRUE(db->Write(leveldb::WriteOptions(), &batch).ok());
    if (v + 1 < config.versions) snapshots.push_back(db->GetSnapshot());
  }
  db->CompactRange(nullptr, nullptr);
  for (const leveldb::Snapshot* snapshot : snapshots) db->ReleaseSnapshot(snapshot);
  db.reset();
  std::vector<std::string> tables;
  for (const auto& entry : std::filesystem::directory_iterator(db_dir)) {
    if (entry.path().extension() == ".ldb") tables.push_back(entry.path().string());
  }
  EXPECT_EQ(tables.size(), 1u) << "expected one table in " << db_dir;
  return tables.empty() ? "" : tables.front();
}

}  // namespace sstfilter::testing

#endif  // SSTFILTER_TESTS_LDB_TEST_UTIL_H_
