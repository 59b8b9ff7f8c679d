// tools/live_tables.h, as the advisor (sstfilter_sst --db) and the shapes
// benchmark's projection read a DB another instance writes.
#include "tools/live_tables.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "table/census/open_db.h"
#include "table/rocksdb/registration.h"
#include "tests/db_test_util.h"

namespace sstfilter {
namespace {

using testing::TempDir;

// The advisor's reader on a DB its writer keeps changing: flushes delete
// WAL files and compactions delete tables while it opens the DB read-only,
// lists the live tables and reads each (as a user runs sstfilter_sst --db
// on a live DB, and the shapes benchmark projects its trees). Every reading
// must succeed: the writer flushes and compacts hundreds of times a
// second, so nearly every listing names some table that is removed before
// it is read, and only a table the next listing still names is lost.
TEST(LiveTablesTest, ReadsADbWhileItsWriterFlushesAndCompacts) {
  TempDir dir;
  rocksdb::Options options;
  options.create_if_missing = true;
  options.write_buffer_size = 16 << 10;
  options.target_file_size_base = 16 << 10;
  options.max_bytes_for_level_base = 64 << 10;
  options.level0_file_num_compaction_trigger = 2;
  rocksdb::BlockBasedTableOptions table;
  ASSERT_TRUE(CreateFilterPolicyStrictly("sstfilter.bloom:10", &table.filter_policy).ok());
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  std::unique_ptr<rocksdb::DB> db;
  ASSERT_TRUE(OpenDb(options, dir.path(), &db).ok());
  ASSERT_TRUE(db->Put({}, "k", "v").ok());
  ASSERT_TRUE(db->Flush({}).ok());
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (uint64_t i = 0; !stop.load(); ++i) {
      const std::string key = absl::StrFormat("%016x", (i * 0x9E3779B97F4A7C15ull) % 200000);
      if (!db->Put({}, key, std::string(100, 'v')).ok()) break;
    }
  });
  int failures = 0;
  std::string first_failure;
  for (int reading = 0; reading < 60; ++reading) {
    const absl::StatusOr<std::vector<FamilyTables>> tables = ReadLiveTables(dir.path(), true);
    bool ok = tables.ok();
    std::string why = ok ? "" : std::string(tables.status().message());
    if (ok) {
      for (const FamilyTables& family : *tables) {
        if (family.unreadable.empty()) continue;
        ok = false;
        why = family.unreadable.front();
      }
    }
    if (!ok && failures++ == 0) first_failure = why;
  }
  stop = true;
  writer.join();
  EXPECT_EQ(failures, 0) << "first: " << first_failure;
}

}  // namespace
}  // namespace sstfilter
