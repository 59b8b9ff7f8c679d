// The cache sweep's parts without a DB (bench/db_bench/cache_sweep.h): its
// rows and fractions as parsed from flags, and its table and CSV. The sweep
// itself runs in db_bench_cli_test.sh.
#include "bench/db_bench/cache_sweep.h"

#include <filesystem>

#include <string>
#include <vector>

#include "bench/db_bench/cache_sweep_plot.h"
#include "filter/encodings.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sstfilter::db_bench {
namespace {

using ::testing::HasSubstr;

TEST(CacheSweepTest, RowsTakeTheHitsSuffixAndExpandEachEncoding) {
  absl::StatusOr<std::vector<CacheRow>> rows =
      ParseCacheRows("bloomfilter:10+optimize_filters_for_hits,sstfilter.bloom:10:*");
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 1 + AllEncodingIds().size());
  EXPECT_EQ((*rows)[0].filter, "bloomfilter:10");
  EXPECT_EQ((*rows)[0].label, "bloomfilter:10+optimize_filters_for_hits");
  EXPECT_TRUE((*rows)[0].hits);
  EXPECT_EQ((*rows)[1].filter, "sstfilter.bloom:10");
  EXPECT_FALSE((*rows)[1].hits);
  EXPECT_EQ((*rows)[1].label, (*rows)[1].filter);
  EXPECT_TRUE(ParseCacheRows(kDefaultCacheRows).ok());
  EXPECT_FALSE(ParseCacheRows("").ok());
}

TEST(CacheSweepTest, FractionsArePositiveAndIncreasing) {
  absl::StatusOr<std::vector<double>> f = ParseCacheFractions("0.125,0.5,2");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(*f, (std::vector<double>{0.125, 0.5, 2}));
  EXPECT_THAT(std::string(ParseCacheFractions("0.5,x").status().message()),
              HasSubstr("'x' is not a fraction in (0, 64]"));
  EXPECT_FALSE(ParseCacheFractions("0").ok());
  EXPECT_FALSE(ParseCacheFractions("100").ok());
  EXPECT_THAT(std::string(ParseCacheFractions("1,0.5").status().message()),
              HasSubstr("expected increasing fractions"));
  EXPECT_EQ(BloomTenFilterBytes(8000000), 10000000);
}

CachePoint Point(const std::string& row, GetKind kind, int64_t cache, double filter) {
  CachePoint p;
  p.row = row, p.kind = kind, p.cache_bytes = cache, p.fraction = cache / 1e6;
  p.filter_reads = filter, p.index_reads = 0.02, p.data_reads = 0.03;
  p.micros = 70, p.filter_bytes = 10 << 20, p.found = kind == GetKind::kMixed ? 0.5 : 0;
  p.model = {filter * 1.1, 0.02, 0.03};
  p.model_by_tables = {filter * 1.2, 0.02, 0.03};
  return p;
}

TEST(CacheSweepTest, TableGroupsByKindThenCacheInRowOrder) {
  const std::vector<CachePoint> points = {
      Point("b", GetKind::kAbsent, 1000000, 0.9), Point("b", GetKind::kMixed, 1000000, 0.5),
      Point("b", GetKind::kAbsent, 2000000, 0.1), Point("a", GetKind::kAbsent, 1000000, 0.8)};
  const std::string table = CacheSweepTable(points);
  const size_t small = table.find("absent Gets, block cache 0.95 MiB (1x");
  const size_t big = table.find("absent Gets, block cache 1.91 MiB (2x");
  const size_t mixed = table.find("mixed Gets, block cache 0.95 MiB");
  ASSERT_NE(small, std::string::npos) << table;
  ASSERT_NE(big, std::string::npos) << table;
  ASSERT_NE(mixed, std::string::npos) << table;
  EXPECT_LT(small, big);
  EXPECT_LT(big, mixed);
  // The rows of a group in the order they came: b before a.
  const size_t b = table.find("b  ", small), a = table.find("a  ", small);
  EXPECT_LT(b, a);
  EXPECT_LT(a, big);
  EXPECT_THAT(table, HasSubstr("0.900 + 0.020 + 0.030 = 0.950"));
  // The model beside it, and its ratio to the measured.
  EXPECT_THAT(table, HasSubstr("0.990 + 0.020 + 0.030 = 1.040 (1.09x)\n"));
}

// Under skewed traffic, the model by the tables' shares beside the exact one.
TEST(CacheSweepTest, SkewedPointsShowTheModelByTablesShares) {
  CachePoint p = Point("a", GetKind::kAbsent, 1000000, 0.5);
  p.traffic = "zipf 0.99 over 1000 ranges (hot set 1)";
  EXPECT_THAT(CacheSweepTable({p}),
              HasSubstr("0.550 + 0.020 + 0.030 = 0.600 (1.09x; by tables' shares 1.18x)"));
}

TEST(CacheSweepTest, CsvQuotesThePolicy) {
  CachePoint p = Point("{id=\"x\"}", GetKind::kMixed, 1000000, 0.25);
  const std::string csv = CacheSweepCsv({p});
  EXPECT_THAT(csv, HasSubstr("\n\"{id=\"\"x\"\"}\",1000000,1,mixed,0.5000,0.25000,0.02000,"
                             "0.03000,0.30000,70.00,10485760,0.27500,0.02000,0.03000,0.32500,"
                             "0.35000,0,0,0,0,\"uniform\",\"\"\n"));
  EXPECT_THAT(csv, HasSubstr(",model_filter_reads,model_index_reads,model_data_reads,model_reads,"
                             "model_by_tables_reads,learned_gets,rebuilt_tables,rebuilt_bytes,"
                             "load_bytes,traffic,by_level\n"));
}

// A point after a learning phase says what the census rewrote, against
// what the DB's load wrote, in the table and the CSV.
TEST(CacheSweepTest, ALearnedPointSaysWhatWasRewritten) {
  CachePoint p = Point("a, after 100000 Gets", GetKind::kAbsent, 1000000, 0.5);
  p.learned_gets = 100000;
  p.rebuilt_tables = 12;
  p.rebuilt_bytes = 3 << 20;
  p.load_bytes = 12 << 20;
  EXPECT_THAT(CacheSweepTable({p}),
              HasSubstr("rewrote 12 tables, 3.00 MiB: 0.25x what its load's flushes and "
                        "compactions wrote\n"));
  EXPECT_THAT(CacheSweepCsv({p}), HasSubstr(",100000,12,3145728,12582912,\"uniform\","));
}

// Each level's filters, false positives and misses: under the point in the
// table, and in the CSV's last column (no comma in it).
TEST(CacheSweepTest, PointsSplitByLevel) {
  CachePoint p = Point("a", GetKind::kAbsent, 1000000, 0.5);
  p.levels = {{5, 3 << 20, 0.0115, 0.0428}, {6, 1 << 20, 0.0344, 0.1}};
  const std::string split =
      "L5 3.00 MiB: FP 0.0115 misses 0.0428; L6 1.00 MiB: FP 0.0344 misses 0.1000";
  EXPECT_THAT(CacheSweepTable({p}), HasSubstr("by level, per Get: " + split + "\n"));
  EXPECT_THAT(CacheSweepCsv({p}), HasSubstr(",\"uniform\",\"" + split + "\"\n"));
}

// The plot is drawn for a sweep of one point, and where every Get read
// nothing from the device (no point on the log axis to scale it by).
TEST(CacheSweepTest, PlotDrawsOnePointAndAllCached) {
  const std::filesystem::path dir =
      std::filesystem::path(testing::TempDir()) / "cache_sweep_plot_test";
  std::filesystem::create_directories(dir);
  CachePoint cached = Point("a", GetKind::kAbsent, 2000000, 0);
  cached.index_reads = cached.data_reads = 0;
  using Sweep = std::pair<std::string, std::vector<CachePoint>>;
  for (const auto& [name, points] :
       {Sweep{"one", {Point("a", GetKind::kAbsent, 1000000, 0.5)}}, Sweep{"cached", {cached}}}) {
    const std::string stem = (dir / name).string();
    const absl::Status s = RenderCacheSweepPlot(points, "a title", stem);
    EXPECT_TRUE(s.ok()) << name << ": " << s;
    EXPECT_TRUE(std::filesystem::exists(stem + ".png")) << name;
  }
}

}  // namespace
}  // namespace sstfilter::db_bench
