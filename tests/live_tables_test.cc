// tools/live_tables.h, as the advisor (sstfilter_sst --db) and the shapes
// benchmark's projection read a DB another instance writes.
#include "tools/live_tables.h"

#include <sys/stat.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
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

// A table's name in a DB directory is input too: a FIFO there (or a link
// to one) is named "not a regular file", never opened for a blocking read;
// a link to a regular copy of the table is read where it points, as RocksDB
// reads it (tables moved to another disk by a link); an OPTIONS file that is
// a FIFO refuses the DB.
TEST(LiveTablesTest, TablesThatAreNotRegularFilesAreNamedNotRead) {
  TempDir dir;
  rocksdb::Options options;
  options.create_if_missing = true;
  rocksdb::BlockBasedTableOptions table;
  ASSERT_TRUE(CreateFilterPolicyStrictly("sstfilter.bloom:10", &table.filter_policy).ok());
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  std::vector<rocksdb::LiveFileMetaData> files;
  {
    std::unique_ptr<rocksdb::DB> db;
    ASSERT_TRUE(OpenDb(options, dir.path(), &db).ok());
    for (int t = 0; t < 2; ++t) {
      for (int i = 0; i < 500; ++i) {
        ASSERT_TRUE(db->Put({}, absl::StrFormat("%d-%06d", t, i), "v").ok());
      }
      ASSERT_TRUE(db->Flush({}).ok());
    }
    db->GetLiveFilesMetaData(&files);
  }
  ASSERT_EQ(files.size(), 2u);
  const std::string fifo_table = files[0].db_path + files[0].name;
  const std::string linked_table = files[1].db_path + files[1].name;
  const std::string copy = dir.path() + "/elsewhere.sst";
  std::filesystem::rename(linked_table, copy);
  std::filesystem::create_symlink(copy, linked_table);
  std::filesystem::remove(fifo_table);
  const std::string fifo = dir.path() + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  std::filesystem::create_symlink(fifo, fifo_table);

  const absl::StatusOr<std::vector<FamilyTables>> tables = ReadLiveTables(dir.path(), true);
  ASSERT_TRUE(tables.ok()) << tables.status();
  ASSERT_EQ(tables->size(), 1u);
  const FamilyTables& family = tables->front();
  ASSERT_EQ(family.unreadable.size(), 1u);
  EXPECT_TRUE(absl::StrContains(family.unreadable[0], fifo_table + " (L0): not a regular file"))
      << family.unreadable[0];
  ASSERT_EQ(family.read.size(), 1u);
  EXPECT_EQ(family.read[0].file_number, files[1].file_number);

  // The newest OPTIONS file a FIFO: the DB is refused, naming it.
  std::string newest;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    const std::string name = entry.path().filename().string();
    if (absl::StartsWith(name, "OPTIONS-") && name > newest) newest = name;
  }
  ASSERT_FALSE(newest.empty());
  std::filesystem::remove(dir.path() + "/" + newest);
  ASSERT_EQ(mkfifo((dir.path() + "/" + newest).c_str(), 0644), 0);
  const absl::StatusOr<std::vector<FamilyTables>> refused = ReadLiveTables(dir.path(), true);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(absl::StrContains(refused.status().message(), newest + " is a FIFO"))
      << refused.status();
}

}  // namespace
}  // namespace sstfilter
