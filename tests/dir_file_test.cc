// Reading and writing a file of a DB's directory as input
// (table/census/dir_file.h), and the census's file thread
// (table/census/file_worker.h).
#include "table/census/dir_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "rocksdb/env.h"
#include "table/census/file_worker.h"
#include "tests/db_test_util.h"
#include "tests/sst_test_util.h"

namespace sstfilter {
namespace {

using testing::TempDir;

std::vector<std::string> Names(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  return names;
}

void ExpectRefused(const absl::StatusOr<std::string>& read, const std::string& says) {
  ASSERT_FALSE(read.ok());
  EXPECT_TRUE(absl::IsFailedPrecondition(read.status())) << read.status();
  EXPECT_TRUE(absl::StrContains(read.status().message(), says)) << read.status();
}

TEST(DirFileTest, ReadsARegularFileWithinItsBound) {
  TempDir dir;
  const std::string path = dir.path() + "/f";
  std::ofstream(path) << "0123456789";
  EXPECT_EQ(*ReadRegularFile(path, 10), "0123456789");
  ExpectRefused(ReadRegularFile(path, 9), "larger than the 9 bytes");
  EXPECT_EQ(*ReadRegularFileHead(path, 4), "0123");
  EXPECT_TRUE(absl::IsNotFound(ReadRegularFile(dir.path() + "/none", 10).status()));
}

TEST(DirFileTest, RefusesWhatIsNotARegularFileWithoutBlocking) {
  TempDir dir;
  const std::string fifo = dir.path() + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  ExpectRefused(ReadRegularFile(fifo, 100), "is a FIFO");  // Returns: no writer needed.
  ExpectRefused(ReadRegularFile("/dev/zero", 100), "is a character device");
  ExpectRefused(ReadRegularFileHead("/dev/zero", 100), "is a character device");
  ExpectRefused(ReadRegularFile(dir.path(), 100), "is a directory");
  const std::string link = dir.path() + "/link";
  ASSERT_EQ(symlink("/dev/zero", link.c_str()), 0);
  ExpectRefused(ReadRegularFile(link, 100), "is a character device");
}

TEST(DirFileTest, ReplacesALinkWithoutWritingThroughIt) {
  TempDir dir, outside;
  const std::string victim = outside.path() + "/victim";
  std::ofstream(victim) << "kept";
  const std::string path = dir.path() + "/f";
  ASSERT_EQ(symlink(victim.c_str(), path.c_str()), 0);
  ASSERT_TRUE(ReplaceFile(path, "new").ok());
  EXPECT_EQ(testing::ReadFileBytes(victim), "kept");
  EXPECT_EQ(*ReadRegularFile(path, 100), "new");
  EXPECT_EQ(Names(dir.path()), std::vector<std::string>{"f"});
}

TEST(DirFileTest, ADirectoryInTheWayFailsTheWriteAndLeavesNothing) {
  TempDir dir;
  const std::string path = dir.path() + "/f";
  ASSERT_TRUE(std::filesystem::create_directory(path));
  std::ofstream(path + "/inside") << "x";
  const absl::Status s = ReplaceFile(path, "new");
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(absl::StrContains(s.message(), "renaming")) << s;
  EXPECT_EQ(Names(dir.path()), std::vector<std::string>{"f"});
  EXPECT_EQ(testing::ReadFileBytes(path + "/inside"), "x");
}

TEST(DirFileTest, WritesThroughAnEnvOfItsOwn) {
  const std::unique_ptr<rocksdb::Env> env(rocksdb::NewMemEnv(rocksdb::Env::Default()));
  ASSERT_TRUE(env->CreateDirIfMissing("/d").ok());
  ASSERT_TRUE(ReplaceFile(env.get(), "/d/f", "text").ok());
  EXPECT_EQ(*ReadRegularFile(env.get(), "/d/f", 4), "text");
  EXPECT_FALSE(ReadRegularFile(env.get(), "/d/f", 3).ok());
  EXPECT_TRUE(absl::IsNotFound(ReadRegularFile(env.get(), "/d/none", 3).status()));
  std::vector<std::string> names;
  ASSERT_TRUE(env->GetChildren("/d", &names).ok());
  names.erase(std::remove(names.begin(), names.end(), "."), names.end());
  names.erase(std::remove(names.begin(), names.end(), ".."), names.end());
  EXPECT_EQ(names, std::vector<std::string>{"f"});
}

TEST(DirFileTest, KnowsItsFreshNames) {
  EXPECT_TRUE(IsFreshFileOf("t.0123456789abcdef.tmp", "t"));
  EXPECT_FALSE(IsFreshFileOf("t.tmp", "t"));
  EXPECT_FALSE(IsFreshFileOf("t.0123456789abcdeg.tmp", "t"));
  EXPECT_FALSE(IsFreshFileOf("u.0123456789abcdef.tmp", "t"));
  EXPECT_FALSE(IsFreshFileOf("t.0123456789abcdef", "t"));
}

TEST(DirFileTest, ExcerptsArePrintable) {
  EXPECT_EQ(PrintableExcerpt("ab\x01\xff", 100), "ab\\x01\\xff");
  EXPECT_EQ(PrintableExcerpt("abcdef", 3), "abc...");
}

TEST(FileWorkerTest, RunsInOrderAndANewerTaskReplacesAWaitingOne) {
  std::vector<std::string> ran;
  std::atomic<bool> release{false};
  {
    FileWorker worker;
    worker.Post("block", [&] {
      while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      ran.push_back("block");
    });
    worker.Post("a", [&] { ran.push_back("a1"); });
    worker.Post("b", [&] { ran.push_back("b"); });
    const uint64_t a2 = worker.Post("a", [&] { ran.push_back("a2"); });
    EXPECT_FALSE(worker.WaitFor(a2, std::chrono::milliseconds(10)));
    release = true;
    EXPECT_TRUE(worker.WaitFor(a2, std::chrono::seconds(60)));
    worker.Post("c", [&] { ran.push_back("c"); });
  }  // The destructor runs what waits.
  EXPECT_EQ(ran, (std::vector<std::string>{"block", "b", "a2", "c"}));
}

TEST(FileWorkerTest, DrainWaitsForEveryTaskPosted) {
  FileWorker worker;
  std::atomic<int> done{0};
  for (int i = 0; i < 5; ++i) {
    worker.Post("k" + std::to_string(i), [&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      ++done;
    });
  }
  worker.Drain();
  EXPECT_EQ(done, 5);
}

}  // namespace
}  // namespace sstfilter
