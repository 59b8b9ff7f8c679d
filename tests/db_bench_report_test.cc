// sstfilter_db_bench's JSON: a document any JSON reader parses back to the
// figures, whatever characters a filter string holds.
#include <string>
#include <vector>

#include "bench/db_bench/report.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace sstfilter::db_bench {
namespace {

BenchmarkResult ReadResult() {
  BenchmarkResult r;
  r.name = "readmissing";
  r.ops = 1000;
  r.seconds = 0.5;
  r.is_read = true;
  r.counters.filter.useful = 990;
  r.counters.filter.positive = 10;
  r.counters.data_block_reads = 12;
  r.counters.filter_block_reads = 300;
  r.counters.index_block_reads = 20;
  r.tables.bytes = 4096;
  r.tables.keys = 3000;
  r.tables.by_level = {{1, 100, 100}, {}, {2, 2900, 3996}};
  return r;
}

TEST(DbBenchReportTest, JsonParsesBackWithEveryCharacterOfAFilterString) {
  // Quotes, a backslash, control characters (a tab, a newline, 0x01) and
  // UTF-8: an option string may hold any of them.
  const std::string filter = "{id=x;q=\"a\\b\"}\t\n\x01 \xc3\xa9";
  const std::vector<FilterRun> runs = {{filter, {ReadResult()}}};
  WorkloadConfig config;
  config.num = 1000;
  const nlohmann::json doc = nlohmann::json::parse(ToJson(runs, config));
  ASSERT_EQ(doc["runs"].size(), 1u);
  EXPECT_EQ(doc["runs"][0]["filter"], filter);
  const nlohmann::json& r = doc["runs"][0]["results"][0];
  EXPECT_EQ(r["benchmark"], "readmissing");
  EXPECT_EQ(r["ops"], 1000);
  EXPECT_DOUBLE_EQ(r["micros_per_op"].get<double>(), 500.0);
  EXPECT_DOUBLE_EQ(r["fp_rate"].get<double>(), 0.01);  // 10 of 1000 absent checks.
  EXPECT_DOUBLE_EQ(r["data_block_reads_per_op"].get<double>(), 0.012);
  EXPECT_DOUBLE_EQ(r["filter_block_reads_per_op"].get<double>(), 0.3);
  EXPECT_DOUBLE_EQ(r["index_block_reads_per_op"].get<double>(), 0.02);
  EXPECT_EQ(r["tables_by_level"][2]["filter_bytes"], 3996);
  EXPECT_EQ(r["tables_by_level"][2]["keys"], 2900);
  EXPECT_EQ(r["tables_by_level"][1]["files"], 0);
  EXPECT_EQ(doc["reads"], 1000) << "reads -1 is written as --num";
}

// The filter line splits a Get's block reads: data, filter, index.
TEST(DbBenchReportTest, FilterLineSplitsTheBlockReads) {
  const std::string line = FilterLine(ReadResult());
  EXPECT_NE(line.find("0.0120 data-block reads/op, 0.3000 filter-block reads/op, "
                      "0.0200 index-block reads/op"),
            std::string::npos)
      << line;
}

// Bytes that are not UTF-8 cannot appear in JSON text: they are replaced,
// and the document still parses.
TEST(DbBenchReportTest, InvalidUtf8InAFilterStringIsReplaced) {
  const std::vector<FilterRun> runs = {{"bad\xff", {ReadResult()}}};
  const nlohmann::json doc = nlohmann::json::parse(ToJson(runs, WorkloadConfig()));
  EXPECT_EQ(doc["runs"][0]["filter"], "bad\xef\xbf\xbd");
}

}  // namespace
}  // namespace sstfilter::db_bench
