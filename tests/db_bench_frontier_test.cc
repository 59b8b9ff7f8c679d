// sstfilter_db_bench's frontier (bench/db_bench/frontier.h): settings and
// families parsed, each family's filters one per setting, and the crossings
// read off a curve, checked against curves whose crossings are known in
// closed form.
#include "bench/db_bench/frontier.h"

#include <cmath>
#include <string>
#include <vector>

#include "filter/encoding_id.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sstfilter::db_bench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(FrontierSettingsTest, ParsesAListOfTwoOrMore) {
  EXPECT_THAT(ParseFrontierSettings("8,10,12.5").value(), ElementsAre(8, 10, 12.5));
}

TEST(FrontierSettingsTest, RefusesBadLists) {
  EXPECT_THAT(std::string(ParseFrontierSettings("10").status().message()),
              HasSubstr("at least two settings"));
  EXPECT_THAT(std::string(ParseFrontierSettings("8,x").status().message()),
              HasSubstr("'x' is not a setting"));
  EXPECT_THAT(std::string(ParseFrontierSettings("8,0").status().message()),
              HasSubstr("'0' is not a setting in [1, 100]"));
  EXPECT_THAT(std::string(ParseFrontierSettings("8,101").status().message()),
              HasSubstr("'101' is not a setting"));
  EXPECT_THAT(std::string(ParseFrontierSettings("8,8.0").status().message()),
              HasSubstr("setting 8 is given twice"));
}

TEST(FrontierFamiliesTest, OneFilterPerSettingLabelledWithN) {
  const std::vector<FrontierFamily> families =
      ExpandFrontierFamilies("bloomfilter:N,sstfilter.bloom:N:compact:optimize_levels", {8, 10})
          .value();
  ASSERT_EQ(families.size(), 2u);
  EXPECT_EQ(families[0].label, "bloomfilter:N");
  EXPECT_THAT(families[0].filters, ElementsAre("bloomfilter:8", "bloomfilter:10"));
  EXPECT_EQ(families[1].label, "sstfilter.bloom:N:compact:optimize_levels");
  EXPECT_THAT(families[1].filters, ElementsAre("sstfilter.bloom:8:compact:optimize_levels",
                                               "sstfilter.bloom:10:compact:optimize_levels"));
}

TEST(FrontierFamiliesTest, StarIsAFamilyPerEncoding) {
  const std::vector<FrontierFamily> families =
      ExpandFrontierFamilies("sstfilter.bloom:N:*", {8, 10}).value();
  ASSERT_EQ(families.size(), AllEncodingIds().size());
  for (const FrontierFamily& family : families) {
    ASSERT_EQ(family.filters.size(), 2u);
    EXPECT_THAT(family.filters[0], HasSubstr("sstfilter.bloom:8"));
    EXPECT_THAT(family.filters[1], HasSubstr("sstfilter.bloom:10"));
    EXPECT_THAT(family.label, HasSubstr("sstfilter.bloom:N"));
  }
}

TEST(FrontierFamiliesTest, DefaultFamiliesExpand) {
  const std::vector<FrontierFamily> families =
      ExpandFrontierFamilies(kDefaultFrontierFamilies, {8, 10}).value();
  EXPECT_EQ(families.size(), 3 + 2 * AllEncodingIds().size());
  EXPECT_EQ(families.front().label, "bloomfilter:N");
}

TEST(FrontierFamiliesTest, RefusesAFamilyWithoutN) {
  EXPECT_THAT(std::string(ExpandFrontierFamilies("bloomfilter:10", {8, 10}).status().message()),
              HasSubstr("'bloomfilter:10': expected one field 'N'"));
}

TEST(FrontierFamiliesTest, LeavesOtherFiltersToTheEngine) {
  // As in --compare, a filter without "*" is resolved when its DB opens.
  EXPECT_THAT(ExpandFrontierFamilies("nosuch:N", {8, 10}).value()[0].filters,
              ElementsAre("nosuch:8", "nosuch:10"));
}

// reads = 0.1 * exp(-(bytes - 1)): a straight line in bytes and log(reads).
FrontierCurve Exponential() {
  FrontierCurve curve{"c", {}};
  for (double bytes : {1.0, 1.5, 2.0}) {
    curve.points.push_back({bytes * 8, bytes, 0.1 * std::exp(-(bytes - 1)), 1});
  }
  return curve;
}

TEST(FrontierCrossingTest, ReadsAtBytesFollowsTheCurve) {
  const FrontierCurve curve = Exponential();
  EXPECT_NEAR(ReadsAtBytes(curve, 1.5).value(), 0.1 * std::exp(-0.5), 1e-12);
  EXPECT_NEAR(ReadsAtBytes(curve, 1.25).value(), 0.1 * std::exp(-0.25), 1e-12);
  EXPECT_FALSE(ReadsAtBytes(curve, 0.9).has_value());
  EXPECT_FALSE(ReadsAtBytes(curve, 2.1).has_value());
}

TEST(FrontierCrossingTest, BytesAtReadsIsItsInverse) {
  const FrontierCurve curve = Exponential();
  EXPECT_NEAR(BytesAtReads(curve, 0.1 * std::exp(-1)).value(), 2.0, 1e-12);
  const double reads = ReadsAtBytes(curve, 1.7).value();
  EXPECT_NEAR(BytesAtReads(curve, reads).value(), 1.7, 1e-9);
  EXPECT_FALSE(BytesAtReads(curve, 0.2).has_value());
}

TEST(FrontierCrossingTest, NoCrossingWhereAPointReadNothing) {
  FrontierCurve curve = Exponential();
  curve.points[2].reads_per_op = 0;
  EXPECT_FALSE(BytesAtReads(curve, 0.05).has_value());
}

TEST(FrontierTableTest, RatiosAgainstTheFirstFamilyAtTheReferenceSetting) {
  FrontierCurve half = Exponential();
  half.label = "half";
  for (FrontierPoint& p : half.points) p.reads_per_op /= 2;
  const std::string table = FrontierTable({Exponential(), half}, 12);  // bytes 1.5.
  // half reads at 1.5 bytes: 0.5x; the same reads as the reference's
  // (0.1 e^-0.5) at bytes 1.5 - ln 2 = 0.807 ... below its points.
  EXPECT_THAT(table, HasSubstr("against c at 12 (1.500 filter bytes/key"));
  EXPECT_THAT(table, testing::ContainsRegex("half +outside its range +0.500x"));
}

TEST(FrontierCsvTest, OneRowPerPoint) {
  EXPECT_EQ(FrontierCsv({Exponential()}),
            "family,setting,filter_bytes_per_key,data_block_reads_per_absent_get,"
            "micros_per_absent_get\n"
            "\"c\",8,1.000000,0.100000,1.0000\n"
            "\"c\",12,1.500000,0.060653,1.0000\n"
            "\"c\",16,2.000000,0.036788,1.0000\n");
}

}  // namespace
}  // namespace sstfilter::db_bench
