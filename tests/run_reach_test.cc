// The share of lookups that reach a run (filter/allocation/run_reach.h), on ranges
// whose overlaps are worked out by hand.
#include "filter/allocation/run_reach.h"

#include <vector>

#include "gtest/gtest.h"

namespace sstfilter {
namespace {

// The reference: four tables of 100, 100, 100 and 700 keys, each spread
// over ten places ("a0".."a9": nine steps between its bounds).
const std::vector<KeyRange> kReference = {
    {"a0", "a9", 100}, {"c0", "c9", 100}, {"e0", "e9", 100}, {"g0", "g9", 700}};

TEST(RunReachTest, ShareOfTheReferencesKeysUnderTheRunsRanges) {
  EXPECT_DOUBLE_EQ(RunReach(kReference, kReference), 1.0);
  EXPECT_NEAR(RunReach({{"c0", "e9", 50}}, kReference), 0.2, 1e-12);  // 2nd and 3rd.
  EXPECT_NEAR(RunReach({{"b0", "b9", 5}}, kReference), 0.0, 1e-12);   // Between tables.
  EXPECT_NEAR(RunReach({{"x", "y", 10}}, kReference), 0.0, 1e-12);
  EXPECT_DOUBLE_EQ(RunReach({}, kReference), 0.0);
  EXPECT_DOUBLE_EQ(RunReach({{"a", "z", 1}}, {}), 1.0);
}

// A range over part of a table holds that part of its keys, by the place
// of its bounds between the table's.
TEST(RunReachTest, PartOfATableHoldsItsShareOfTheKeys) {
  EXPECT_NEAR(RunReach({{"c3", "c6", 5}}, kReference), 100.0 / 3 / 1000, 1e-12);
  EXPECT_NEAR(RunReach({{"a1", "a2", 1}, {"a5", "a8", 1}}, kReference), 100.0 * 4 / 9 / 1000,
              1e-12);
  // From below the first table into it, from the last into beyond.
  EXPECT_NEAR(RunReach({{"0", "a3", 1}, {"g6", "z", 1}}, kReference),
              (100.0 * 3 / 9 + 700.0 * 3 / 9) / 1000, 1e-12);
  // A range of one key holds none of a table's spread; a table of one key
  // counts whole where a range holds it.
  EXPECT_NEAR(RunReach({{"a9", "a9", 1}}, kReference), 0.0, 1e-12);
  EXPECT_DOUBLE_EQ(RunReach({{"a", "z", 1}}, {{"m", "m", 10}}), 1.0);
  EXPECT_DOUBLE_EQ(RunReach({{"n", "z", 1}}, {{"m", "m", 10}}), 0.0);
  // Keys that differ far past a long shared prefix still place.
  const std::string prefix(40, 'k');
  EXPECT_NEAR(RunReach({{prefix + "2", prefix + "4", 1}}, {{prefix + "0", prefix + "8", 80}}),
              0.25, 1e-12);
}

TEST(RunReachTest, OverlappingRangesOfTheRunMerge) {
  // L0-like: tables whose ranges overlap and nest: c0-e4 in all.
  EXPECT_NEAR(RunReach({{"c2", "e4", 1}, {"c0", "c5", 1}, {"c1", "c3", 1}}, kReference),
              (100.0 + 100.0 * 4 / 9) / 1000, 1e-12);
}

TEST(RunReachTest, BytewiseOrderIsChecked) {
  EXPECT_TRUE(RangesOrderedBytewise(kReference));
  EXPECT_FALSE(RangesOrderedBytewise({{"z", "a", 1}}));
}

}  // namespace
}  // namespace sstfilter
