// The share of lookups that reach a run (filter/run_reach.h), on ranges
// whose overlaps are worked out by hand.
#include "filter/run_reach.h"

#include <vector>

#include "gtest/gtest.h"

namespace sstfilter {
namespace {

// The reference: four tables of 100, 100, 100 and 700 keys.
const std::vector<KeyRange> kReference = {
    {"a", "b", 100}, {"c", "d", 100}, {"e", "f", 100}, {"g", "h", 700}};

TEST(RunReachTest, ShareOfTheReferencesKeysUnderTheRunsRanges) {
  EXPECT_DOUBLE_EQ(RunReach(kReference, kReference), 1.0);
  EXPECT_DOUBLE_EQ(RunReach({{"c", "e", 50}}, kReference), 0.2);         // 2nd and 3rd.
  EXPECT_DOUBLE_EQ(RunReach({{"bb", "bc", 5}}, kReference), 0.0);        // Between tables.
  EXPECT_DOUBLE_EQ(RunReach({{"b", "b", 1}}, kReference), 0.1);          // An edge counts.
  EXPECT_DOUBLE_EQ(RunReach({{"0", "a", 1}, {"h", "z", 1}}, kReference), 0.8);
  EXPECT_DOUBLE_EQ(RunReach({{"x", "y", 10}}, kReference), 0.0);
  EXPECT_DOUBLE_EQ(RunReach({}, kReference), 0.0);
  EXPECT_DOUBLE_EQ(RunReach({{"a", "z", 1}}, {}), 1.0);
}

TEST(RunReachTest, OverlappingRangesOfTheRunMerge) {
  // L0-like: two tables whose ranges overlap and nest.
  EXPECT_DOUBLE_EQ(RunReach({{"d", "g", 1}, {"c", "e", 1}, {"dd", "de", 1}}, kReference), 0.9);
  EXPECT_DOUBLE_EQ(RunReach({{"bz", "cc", 1}, {"ca", "cb", 1}}, kReference), 0.1);
}

TEST(RunReachTest, BytewiseOrderIsChecked) {
  EXPECT_TRUE(RangesOrderedBytewise(kReference));
  EXPECT_FALSE(RangesOrderedBytewise({{"z", "a", 1}}));
}

}  // namespace
}  // namespace sstfilter
