// What the advisor's end-to-end tests (sst_advisor_test.cc,
// sst_advisor_traffic_test.cc) share: sstfilter_sst run as a process,
// numbers read from its output, DBs of L0 tables written by given policies.
// REQUIRES: SSTFILTER_SST_BIN defined (the tool's command, by CMake).
#ifndef SSTFILTER_TESTS_SST_ADVISOR_UTIL_H_
#define SSTFILTER_TESTS_SST_ADVISOR_UTIL_H_

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "table/census/open_db.h"
#include "table/rocksdb/registration.h"
#include "tests/db_test_util.h"
#include "tests/tool_runner.h"

namespace sstfilter {
namespace advisor_testing {

using Result = testing::ToolResult;

inline Result RunTool(const std::vector<std::string>& args) {
  return testing::RunTool(SSTFILTER_SST_BIN, args);
}

// The fields after the first word of the output's line that starts with
// `first` ("L0 ", "all "), split on spaces. (No std::regex: GCC 12 warns
// inside it at -O2 with sanitizers.)
inline std::vector<std::string> Row(const std::string& output, const std::string& first) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(first + " ", 0) != 0) continue;
    std::vector<std::string> fields;
    std::istringstream in(line.substr(first.size()));
    for (std::string f; in >> f;) fields.push_back(f);
    return fields;
  }
  return {};
}

// The number right before `suffix` in the output (0 if none).
inline double NumberBefore(const std::string& output, const std::string& suffix) {
  const size_t end = output.find(suffix);
  if (end == std::string::npos) return 0;
  size_t begin = end;
  while (begin > 0 && (std::isdigit(static_cast<unsigned char>(output[begin - 1])) ||
                       output[begin - 1] == '.')) {
    --begin;
  }
  double v = 0;
  return absl::SimpleAtod(output.substr(begin, end - begin), &v) ? v : 0;
}

// The last of `fields` as a number (-1 if none).
inline double Last(const std::vector<std::string>& fields) {
  double v = -1;
  if (!fields.empty()) {
    EXPECT_TRUE(absl::SimpleAtod(fields.back(), &v)) << fields.back();
  }
  return v;
}

// A DB in `dir` whose L0 holds one table per key set, each written (and
// flushed) by the policy paired with it; no compaction runs.
inline void WriteL0Tables(const std::string& dir,
                   const std::vector<std::pair<std::string, std::vector<std::string>>>& tables) {
  EnsureRocksDbFilterPoliciesRegistered();
  for (const auto& [policy, keys] : tables) {
    rocksdb::Options options;
    options.create_if_missing = true;
    options.disable_auto_compactions = true;
    options.compression = rocksdb::kNoCompression;
    rocksdb::BlockBasedTableOptions table;
    ASSERT_TRUE(CreateFilterPolicyStrictly(policy, &table.filter_policy).ok()) << policy;
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    std::unique_ptr<rocksdb::DB> db;
    ASSERT_TRUE(OpenDb(options, dir, &db).ok());
    for (const std::string& k : keys) ASSERT_TRUE(db->Put({}, k, testing::ValueFor(k)).ok());
    ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  }
}

// The DB's table files, oldest first.
inline std::vector<std::string> TableFiles(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ".sst") names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace advisor_testing
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_SST_ADVISOR_UTIL_H_
