// A level's move as the traffic file carries it between a DB's instances
// (table/census/level_moves.h): in the wall clock's seconds when written,
// back in the steady clock when carried, and only within kPaybackHorizon.
#include "table/census/level_moves.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <utility>

#include "filter/plan/rebuild_gain.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

using std::chrono::seconds;
using std::chrono::steady_clock;
using std::chrono::system_clock;

// 2026-12-04 00:00:00 UTC.
const system_clock::time_point kWall = system_clock::time_point(seconds(1796342400));
const steady_clock::time_point kSteady = steady_clock::time_point(seconds(50000));

TEST(LevelMovesTest, WritesEachMoveAtTheWallClockSecondItWasMade) {
  const LevelMoveTimes moves{{5, {false, kSteady - seconds(30)}}, {6, {true, kSteady}}};
  const std::map<int, LevelMove> written = MovesToWrite(moves, kWall, kSteady);
  EXPECT_EQ(written, (std::map<int, LevelMove>{{5, {false, 1796342370}}, {6, {true, 1796342400}}}));
}

TEST(LevelMovesTest, LeavesOutMovesPastThePaybackHorizon) {
  const LevelMoveTimes moves{{4, {true, kSteady - kPaybackHorizon}},
                             {5, {true, kSteady - kPaybackHorizon + seconds(1)}}};
  const std::map<int, LevelMove> written = MovesToWrite(moves, kWall, kSteady);
  ASSERT_EQ(written.size(), 1u);
  EXPECT_EQ(written.count(5), 1u);
}

// The next instance (another process: another steady clock) holds each
// move as made as long ago as the file says.
TEST(LevelMovesTest, CarriesMovesAsLongAgoAsTheyWereMade) {
  const steady_clock::time_point other = steady_clock::time_point(seconds(7));
  const LevelMoveTimes carried = MovesCarried(
      {{5, {false, 1796342370}}, {6, {true, 1796342400 - 100}}}, kWall + seconds(20), other);
  ASSERT_EQ(carried.size(), 2u);
  EXPECT_EQ(carried.at(5), std::make_pair(false, other - seconds(50)));
  EXPECT_EQ(carried.at(6), std::make_pair(true, other - seconds(120)));
}

TEST(LevelMovesTest, CarriesNoMovePastThePaybackHorizon) {
  const int64_t now = 1796342400;
  const LevelMoveTimes carried = MovesCarried(
      {{4, {true, now - kPaybackHorizon.count()}}, {5, {true, now - kPaybackHorizon.count() + 1}}},
      kWall, kSteady);
  ASSERT_EQ(carried.size(), 1u);
  EXPECT_EQ(carried.count(5), 1u);
}

// A wall clock set back since the file was written: a move it puts in the
// future counts as made now, so it holds kPaybackHorizon, no longer.
TEST(LevelMovesTest, AMoveInTheFutureCountsAsMadeNow) {
  const LevelMoveTimes carried = MovesCarried({{6, {true, 1796342400 + 86400}}}, kWall, kSteady);
  ASSERT_EQ(carried.size(), 1u);
  EXPECT_EQ(carried.at(6), std::make_pair(true, kSteady));
}

// A table the plan would move its level the other way from the loop's last
// move there waits kPaybackHorizon; one moved the same way, or of a level
// the loop has not moved, does not.
TEST(LevelMovesTest, ATableToBeMovedTheOtherWayWaitsOutTheHorizon) {
  const LevelMoveTimes moves{{6, {true, kSteady}}};
  auto gain = [](int level, double built, double planned) {
    TableRebuild g;
    g.table.level = level, g.table.built_bits = built, g.table.planned_bits = planned;
    return g;
  };
  EXPECT_TRUE(WaitsForTheOtherMove(moves, gain(6, 5, 9), kSteady + seconds(1)));
  EXPECT_TRUE(WaitsForTheOtherMove(moves, gain(6, 0, 7), kSteady + kPaybackHorizon - seconds(1)));
  EXPECT_FALSE(WaitsForTheOtherMove(moves, gain(6, 5, 9), kSteady + kPaybackHorizon));
  EXPECT_FALSE(WaitsForTheOtherMove(moves, gain(6, 9, 5), kSteady + seconds(1)));
  EXPECT_FALSE(WaitsForTheOtherMove(moves, gain(6, 7, 0), kSteady + seconds(1)));
  EXPECT_FALSE(WaitsForTheOtherMove(moves, gain(5, 5, 9), kSteady + seconds(1)));
}

}  // namespace
}  // namespace sstfilter
