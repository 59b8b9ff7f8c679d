// Which of the rebuild loop's reckonings a DB's LOG shows
// (table/census/reckoning_log.h), on hand-made counts.
#include "table/census/reckoning_log.h"

#include <chrono>

#include "gtest/gtest.h"

namespace sstfilter {
namespace {

using std::chrono::seconds;
const auto kFirstTick = std::chrono::steady_clock::time_point() + seconds(500);

TEST(ReckoningLogTest, CountsThatFlapEachTickAreShownOnceAMinute) {
  ReckoningLogGate gate;
  EXPECT_TRUE(gate.Admit("54 0", 0, kFirstTick)) << "the first is shown";
  EXPECT_FALSE(gate.Admit("54 0", 0, kFirstTick + seconds(1))) << "nothing changed";
  for (int tick = 2; tick < 60; ++tick) {
    EXPECT_FALSE(gate.Admit(tick % 2 == 0 ? "55 0" : "54 0", 0, kFirstTick + seconds(tick)))
        << "tick " << tick;
  }
  EXPECT_TRUE(gate.Admit("55 0", 0, kFirstTick + seconds(60)));
  EXPECT_FALSE(gate.Admit("54 0", 0, kFirstTick + seconds(61)));
}

TEST(ReckoningLogTest, MoreTablesToRewriteAreShownAtOnceFewerOnceAMinute) {
  ReckoningLogGate gate;
  EXPECT_TRUE(gate.Admit("54 0", 0, kFirstTick));
  EXPECT_TRUE(gate.Admit("54 3", 3, kFirstTick + seconds(1))) << "more to rewrite";
  EXPECT_FALSE(gate.Admit("51 0", 0, kFirstTick + seconds(2))) << "fewer: within the gap";
  EXPECT_TRUE(gate.Admit("51 0", 0, kFirstTick + seconds(61)));
  EXPECT_FALSE(gate.Admit("51 0", 0, kFirstTick + seconds(200))) << "nothing changed";
}

// A table at the payback's edge, worth rewriting one tick and not the
// next: a line a minute, not a second.
TEST(ReckoningLogTest, ATableFlappingAtThePaybacksEdgeIsShownOnceAMinute) {
  ReckoningLogGate gate;
  EXPECT_TRUE(gate.Admit("54 1", 1, kFirstTick));
  int shown = 0;
  for (int tick = 1; tick < 60; ++tick) {
    const bool worth = tick % 2 == 0;
    shown += gate.Admit(worth ? "54 1" : "54 0", worth ? 1 : 0, kFirstTick + seconds(tick));
  }
  EXPECT_EQ(shown, 0);
}

}  // namespace
}  // namespace sstfilter
