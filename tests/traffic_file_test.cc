// The traffic summary the census leaves for the advisor
// (table/census/traffic_file.h): version 2 (with the DB's hit share) read
// back as written, version 1's bytes (before the hit share) still read,
// damaged lines named.
#include "table/census/traffic_file.h"

#include <string>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

TEST(TrafficFileTest, ReadsBackWhatItWrites) {
  const TrafficSummary written{{{12, 0.75}, {40, 0.25}}, 0.4};
  const std::string text = FormatTrafficFile(written);
  EXPECT_EQ(text, "sstfilter traffic 2\nhit_share 0.4\n12 0.75\n40 0.25\n");
  const absl::StatusOr<TrafficSummary> read = ParseTrafficFile(text);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->tables, written.tables);
  EXPECT_EQ(read->hit_share, written.hit_share);
}

TEST(TrafficFileTest, WithoutAHitShareItHasNoLineForIt) {
  const std::string text = FormatTrafficFile({{{7, 1.0}}, std::nullopt});
  EXPECT_EQ(text, "sstfilter traffic 2\n7 1\n");
  const absl::StatusOr<TrafficSummary> read = ParseTrafficFile(text);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_FALSE(read->hit_share.has_value());
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
      {"", "the first line is not 'sstfilter traffic 2'"},
      {"sstfilter traffic 3\n", "the first line is not"},
      {"sstfilter traffic 2\nhit_share 1.5\n", "line 2 is not 'hit_share <share in [0, 1]>'"},
      {"sstfilter traffic 2\nhit_share\n", "line 2 is not 'hit_share"},
      {"sstfilter traffic 2\n12 0.5\nhit_share 0.5\n", "line 3 is not '<file number>"},
      {"sstfilter traffic 2\n12 -0.1\n", "line 2 is not '<file number> <share in [0, 1]>'"},
  };
  for (const auto& c : cases) {
    const absl::StatusOr<TrafficSummary> read = ParseTrafficFile(c.text);
    ASSERT_FALSE(read.ok()) << c.text;
    EXPECT_NE(read.status().message().find(c.says), std::string::npos)
        << c.text << ": " << read.status();
  }
}

}  // namespace
}  // namespace sstfilter
