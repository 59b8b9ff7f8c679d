// The traffic summary the census leaves for the advisor and the DB's next
// instance (table/census/traffic_file.h): version 4 (with the levels the
// rebuild loop moved) read back as written, the bytes of versions 3 (before
// the moves), 2 (before the DB's identity and each table's exposure) and 1
// (before the hit share) still read, damaged lines named.
#include "table/census/traffic_file.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

TEST(TrafficFileTest, ReadsBackWhatItWrites) {
  const TrafficSummary written{{{12, 0.75}, {40, 0.25}},
                               0.4,
                               "d1b-42",
                               {{12, 1500.5}, {40, 300}},
                               {{5, {false, 1796350000}}, {6, {true, 1796350042}}}};
  const std::string text = FormatTrafficFile(written);
  EXPECT_EQ(text,
            "sstfilter traffic 4\ndb d1b-42\nhit_share 0.4\nmove 5 more 1796350000\n"
            "move 6 fewer 1796350042\n12 0.75 1500.5\n40 0.25 300\n");
  const absl::StatusOr<TrafficSummary> read = ParseTrafficFile(text);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->version, 4);
  EXPECT_EQ(read->tables, written.tables);
  EXPECT_EQ(read->hit_share, written.hit_share);
  EXPECT_EQ(read->db_identity, written.db_identity);
  EXPECT_EQ(read->exposures, written.exposures);
  EXPECT_EQ(read->level_moves, written.level_moves);
}

TEST(TrafficFileTest, WithoutAHitShareIdentityOrMoveItHasNoLineForThem) {
  const std::string text = FormatTrafficFile({{{7, 1.0}}, std::nullopt, "", {{7, 64}}, {}});
  EXPECT_EQ(text, "sstfilter traffic 4\n7 1 64\n");
  const absl::StatusOr<TrafficSummary> read = ParseTrafficFile(text);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_FALSE(read->hit_share.has_value());
  EXPECT_TRUE(read->db_identity.empty());
  EXPECT_TRUE(read->level_moves.empty());
}

// Version 3, as the census wrote it before the levels' moves (the bytes of
// a file it left).
TEST(TrafficFileTest, ReadsVersionThree) {
  const absl::StatusOr<TrafficSummary> read = ParseTrafficFile(
      "sstfilter traffic 3\ndb d1b-42\nhit_share 0.4\n12 0.75 1500.5\n40 0.25 300\n");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->version, 3);
  EXPECT_EQ(read->tables, (TableShares{{12, 0.75}, {40, 0.25}}));
  EXPECT_EQ(read->hit_share, 0.4);
  EXPECT_EQ(read->db_identity, "d1b-42");
  EXPECT_EQ(read->exposures, (std::map<uint64_t, double>{{12, 1500.5}, {40, 300}}));
  EXPECT_TRUE(read->level_moves.empty());
  // Version 3 had no move lines: one there is damage.
  EXPECT_FALSE(ParseTrafficFile("sstfilter traffic 3\nmove 6 fewer 1796350042\n").ok());
}

// Version 2, as the census wrote it before the identity and the exposures
// (the bytes of a file it left).
TEST(TrafficFileTest, ReadsVersionTwo) {
  const absl::StatusOr<TrafficSummary> read =
      ParseTrafficFile("sstfilter traffic 2\nhit_share 0.4\n12 0.75\n40 0.25\n");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->tables, (TableShares{{12, 0.75}, {40, 0.25}}));
  EXPECT_EQ(read->hit_share, 0.4);
  EXPECT_TRUE(read->db_identity.empty());
  EXPECT_TRUE(read->exposures.empty());
  // Version 2 had neither: a db line or a third field there is damage.
  EXPECT_FALSE(ParseTrafficFile("sstfilter traffic 2\ndb d1b\n12 0.5\n").ok());
  EXPECT_FALSE(ParseTrafficFile("sstfilter traffic 2\n12 0.5 100\n").ok());
}

// Version 1, as the census wrote it before the hit share (the bytes of a
// file it left): the tables' shares, no hit share.
TEST(TrafficFileTest, ReadsVersionOne) {
  const absl::StatusOr<TrafficSummary> read =
      ParseTrafficFile("sstfilter traffic 1\n9 0.125\n10 0.875\n");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->tables, (TableShares{{9, 0.125}, {10, 0.875}}));
  EXPECT_FALSE(read->hit_share.has_value());
  // Version 1 had no hit_share line: one there is damage.
  EXPECT_FALSE(ParseTrafficFile("sstfilter traffic 1\nhit_share 0.5\n").ok());
}

TEST(TrafficFileTest, NamesWhatIsDamaged) {
  const struct {
    std::string text, says;
  } cases[] = {
      {"", "the first line is not 'sstfilter traffic 4'"},
      {"sstfilter traffic 5\n", "the first line is not"},
      {"sstfilter traffic 4\nmove 6 fewer\n", "line 2 is not 'move <level, once each>"},
      {"sstfilter traffic 4\nmove -1 fewer 10\n", "line 2 is not 'move"},
      {"sstfilter traffic 4\nmove 1001 fewer 10\n", "line 2 is not 'move"},
      {"sstfilter traffic 4\nmove 6 less 10\n", "line 2 is not 'move"},
      {"sstfilter traffic 4\nmove 6 more -10\n", "line 2 is not 'move"},
      {"sstfilter traffic 4\nmove 6 more 1.5\n", "line 2 is not 'move"},
      {"sstfilter traffic 4\nmove 6 more 1\nmove 6 fewer 2\n", "line 3 is not 'move"},
      {"sstfilter traffic 4\n12 0.5 1\nmove 6 more 1\n", "line 3 is not '<file number>"},
      {"sstfilter traffic 4\nmove 6 more 1\nhit_share 0.5\n", "line 3 is not '<file number>"},
      {"sstfilter traffic 3\ndb\n", "line 2 is not 'db <identity>'"},
      {"sstfilter traffic 3\ndb a b\n", "line 2 is not 'db <identity>'"},
      {"sstfilter traffic 3\ndb a\nhit_share -1\n", "line 3 is not 'hit_share"},
      {"sstfilter traffic 3\n12 0.5\n", "line 2 is not '<file number> <share in [0, 1]> <exposure"},
      {"sstfilter traffic 3\n12 0.5 -3\n", "line 2 is not '<file number>"},
      {"sstfilter traffic 3\n12 0.5 nan\n", "line 2 is not '<file number>"},
      {"sstfilter traffic 2\nhit_share 1.5\n", "line 2 is not 'hit_share <share in [0, 1]>'"},
      {"sstfilter traffic 2\nhit_share\n", "line 2 is not 'hit_share"},
      {"sstfilter traffic 2\n12 0.5\nhit_share 0.5\n", "line 3 is not '<file number>"},
      {"sstfilter traffic 2\n12 -0.1\n", "line 2 is not '<file number> <share in [0, 1]>'"},
      {"sstfilter traffic 3\ndb a\n12 0.5 1", "the last line is cut short"},
      {"sstfilter traffic 3\ndb \x01\xff\n12 x 1\n", "line 3 is not"},
  };
  for (const auto& c : cases) {
    const absl::StatusOr<TrafficSummary> read = ParseTrafficFile(c.text);
    ASSERT_FALSE(read.ok()) << c.text;
    EXPECT_NE(read.status().message().find(c.says), std::string::npos)
        << c.text << ": " << read.status();
  }
}

// A damaged file's bytes are quoted as printable text (they reach the
// DB's LOG and the advisor's output).
TEST(TrafficFileTest, QuotesDamageAsPrintableText) {
  const absl::StatusOr<TrafficSummary> read =
      ParseTrafficFile("sstfilter traffic 3\ndb a\n\x1b[2J\xff 0.5 1\n");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("'\\x1b[2J\\xff 0.5 1'"), std::string::npos)
      << read.status();
}

// The census writes at most kMaxTrafficTables tables, those with the
// largest exposures, so the file it writes is one it reads back; a share
// of -0 is written as 0.
TEST(TrafficFileTest, WritesTheMostExposedTablesWithinItsBound) {
  TrafficSummary summary{{}, -0.0, "d", {}, {}};
  for (uint64_t n = 1; n <= kMaxTrafficTables + 2; ++n) {
    summary.tables[n] = 0.0;
    summary.exposures[n] = n <= 2 ? 0.5 : 1000.0 + static_cast<double>(n);
  }
  const std::string text = FormatTrafficFile(summary);
  EXPECT_LE(text.size(), kMaxTrafficFileBytes);
  EXPECT_NE(text.find("hit_share 0\n"), std::string::npos);
  const absl::StatusOr<TrafficSummary> read = ParseTrafficFile(text);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->tables.size(), kMaxTrafficTables);
  EXPECT_EQ(read->tables.count(1) + read->tables.count(2), 0u) << "the least exposed are left out";
  EXPECT_EQ(read->tables.count(kMaxTrafficTables + 2), 1u);
}

// A share, exposure or hit share written as -0 (by hand: the census writes
// 0) is read as 0, as the traffic file fuzz target requires.
TEST(TrafficFileTest, ReadsMinusZeroAsZero) {
  const absl::StatusOr<TrafficSummary> read =
      ParseTrafficFile("sstfilter traffic 3\nhit_share -0\n7 -0 -0\n");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_FALSE(std::signbit(*read->hit_share));
  EXPECT_FALSE(std::signbit(read->tables.at(7)));
  EXPECT_FALSE(std::signbit(read->exposures.at(7)));
}

}  // namespace
}  // namespace sstfilter
