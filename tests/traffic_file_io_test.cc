// The census's traffic file as input (table/census/dir_file.h,
// traffic_writer.h): whatever stands at its name in a DB's directory (a
// FIFO, a link to a device, a file far too large, a directory, binary
// bytes) and at the temporary name earlier versions wrote through (a link
// to a file outside the directory, to /dev/full, a FIFO), the DB opens,
// writes and flushes without a hang or a crash, the LOG says what was found
// in printable text, nothing outside the directory is written, and the
// census then leaves a traffic file of its own there (but where a directory
// stands in the way). Each case runs the DB on a thread of its own under a
// deadline far above its normal time (a hang fails the test, not the run).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "table/census/census_listener.h"
#include "table/census/dir_file.h"
#include "table/census/open_db.h"
#include "table/census/traffic_file.h"
#include "table/rocksdb/registration.h"
#include "tests/db_test_util.h"
#include "tests/sst_test_util.h"
#include "tests/warning_log.h"

namespace sstfilter {
namespace {

using testing::TempDir;
using testing::WarningLog;

constexpr char kPolicy[] = "sstfilter.bloom:10:cache_local:optimize_levels";
constexpr size_t kKeys = 2000;
// Far above a case's few hundred milliseconds: only a hang reaches it.
constexpr std::chrono::seconds kDeadline{60};

bool IsRegularFile(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// A DB directory with tables and a census, opened as a user would.
class TrafficFileIoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    EnsureRocksDbFilterPoliciesRegistered();
    keys_ = testing::RandomKeys(kKeys, 17);
    std::unique_ptr<rocksdb::DB> db;
    ASSERT_TRUE(OpenDb(Options(std::make_shared<LevelCensusListener>()), dir_.path(), &db).ok());
    for (const std::string& key : keys_) {
      ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, testing::ValueFor(key)).ok());
    }
    ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  }

  rocksdb::Options Options(std::shared_ptr<LevelCensusListener> listener) {
    rocksdb::Options options;
    options.create_if_missing = true;
    testing::UseSmallLeveledTree(&options);
    options.statistics = rocksdb::CreateDBStatistics();
    options.listeners = {std::move(listener)};
    options.info_log = log_;
    rocksdb::BlockBasedTableOptions table;
    EXPECT_TRUE(CreateFilterPolicyStrictly(kPolicy, &table.filter_policy).ok());
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    return options;
  }

  // Reopens the DB, reads a window of Gets (so the census knows the share
  // found and writes its file), writes and flushes, all under the
  // deadline; then waits for the census's file thread.
  void ReopenReadAndFlush() {
    auto listener = std::make_shared<LevelCensusListener>();
    auto run = std::async(std::launch::async, [&] {
      std::unique_ptr<rocksdb::DB> db;
      ASSERT_TRUE(OpenDb(Options(listener), dir_.path(), &db).ok());
      std::string value;
      for (size_t i = 0; i < 12000; ++i) {
        db->Get(rocksdb::ReadOptions(), keys_[i % kKeys], &value).PermitUncheckedError();
      }
      ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "after", "v").ok());
      ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
      listener->WaitForFiles();
      testing::ExpectAllFound(db.get(), keys_, "after the reopen");
    });
    ASSERT_EQ(run.wait_for(kDeadline), std::future_status::ready)
        << "the DB hung with " << TrafficPath() << " as the case made it";
    run.get();
  }

  std::string TrafficPath() const { return dir_.path() + "/" + kTrafficFileName; }
  std::string LegacyTmpPath() const { return TrafficPath() + ".tmp"; }

  // The census's warnings so far, joined.
  std::string Warnings() const {
    std::vector<std::string> lines = log_->Lines();
    lines.erase(std::remove_if(lines.begin(), lines.end(),
                               [](const std::string& l) {
                                 return !absl::StrContains(l, "sstfilter census");
                               }),
                lines.end());
    return absl::StrJoin(lines, "\n");
  }

  // The census's own file stands at the name and reads.
  void ExpectOwnTrafficFile() {
    ASSERT_TRUE(IsRegularFile(TrafficPath())) << Warnings();
    EXPECT_TRUE(ParseTrafficFile(testing::ReadFileBytes(TrafficPath())).ok());
    for (const auto& entry : std::filesystem::directory_iterator(dir_.path())) {
      const std::string name = entry.path().filename().string();
      EXPECT_FALSE(IsFreshFileOf(name, kTrafficFileName)) << name << " left behind";
    }
  }

  TempDir dir_;
  TempDir outside_;
  std::shared_ptr<WarningLog> log_ = std::make_shared<WarningLog>();
  std::vector<std::string> keys_;
};

TEST_F(TrafficFileIoTest, AFifoIsNotOpenedForReading) {
  ASSERT_EQ(mkfifo(TrafficPath().c_str(), 0644), 0);
  ReopenReadAndFlush();
  EXPECT_TRUE(absl::StrContains(Warnings(), "is a FIFO")) << Warnings();
  ExpectOwnTrafficFile();
}

TEST_F(TrafficFileIoTest, ALinkToADeviceIsNotRead) {
  ASSERT_EQ(symlink("/dev/zero", TrafficPath().c_str()), 0);
  ReopenReadAndFlush();
  EXPECT_TRUE(absl::StrContains(Warnings(), "is a character device")) << Warnings();
  ExpectOwnTrafficFile();  // The link replaced, /dev/zero untouched.
}

TEST_F(TrafficFileIoTest, AFileTooLargeIsNotRead) {
  std::string text = "sstfilter traffic 3\ndb x\n";
  for (uint64_t n = 1; text.size() <= kMaxTrafficFileBytes; ++n) {
    text += std::to_string(n) + " 0.000001 1\n";
  }
  std::ofstream(TrafficPath(), std::ios::binary) << text;
  ReopenReadAndFlush();
  EXPECT_TRUE(absl::StrContains(Warnings(), "is larger than the 8388608 bytes")) << Warnings();
  ExpectOwnTrafficFile();
}

TEST_F(TrafficFileIoTest, ADirectoryInTheWayIsNamedAndLeftAsItIs) {
  ASSERT_TRUE(std::filesystem::create_directory(TrafficPath()));
  std::ofstream(TrafficPath() + "/keep") << "user data";
  ReopenReadAndFlush();
  EXPECT_TRUE(absl::StrContains(Warnings(), "is a directory")) << Warnings();
  EXPECT_TRUE(absl::StrContains(Warnings(), "the traffic summary was not written")) << Warnings();
  EXPECT_EQ(testing::ReadFileBytes(TrafficPath() + "/keep"), "user data");
  for (const auto& entry : std::filesystem::directory_iterator(dir_.path())) {
    const std::string name = entry.path().filename().string();
    EXPECT_FALSE(IsFreshFileOf(name, kTrafficFileName)) << name << " left behind";
  }
}

TEST_F(TrafficFileIoTest, BinaryBytesReachTheLogAsPrintableText) {
  std::ofstream(TrafficPath(), std::ios::binary)
      << std::string("sstfilter traffic 3\ndb \x01\x1b[31m\xff\n", 30);
  ReopenReadAndFlush();
  const std::string warnings = Warnings();
  EXPECT_TRUE(absl::StrContains(warnings, "not taken up")) << warnings;
  EXPECT_TRUE(std::all_of(warnings.begin(), warnings.end(),
                          [](char c) { return c == '\n' || (c >= 0x20 && c < 0x7f); }))
      << warnings;
  ExpectOwnTrafficFile();
}

TEST_F(TrafficFileIoTest, ALinkAtTheOldTemporaryNameIsNeverWrittenThrough) {
  const std::string victim = outside_.path() + "/precious";
  std::ofstream(victim) << "outside the DB";
  ASSERT_EQ(symlink(victim.c_str(), LegacyTmpPath().c_str()), 0);
  ReopenReadAndFlush();
  EXPECT_EQ(testing::ReadFileBytes(victim), "outside the DB");
  ExpectOwnTrafficFile();
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::symlink_status(LegacyTmpPath())))
      << "the old temporary name is cleared away";
}

TEST_F(TrafficFileIoTest, ALinkToAFullDeviceAtTheOldTemporaryNameIsHarmless) {
  ASSERT_EQ(symlink("/dev/full", LegacyTmpPath().c_str()), 0);
  ReopenReadAndFlush();
  ExpectOwnTrafficFile();
}

TEST_F(TrafficFileIoTest, AFifoAtTheOldTemporaryNameIsHarmless) {
  ASSERT_EQ(mkfifo(LegacyTmpPath().c_str(), 0644), 0);
  ReopenReadAndFlush();
  ExpectOwnTrafficFile();
}

}  // namespace
}  // namespace sstfilter
