// Access-aware allocation (optimize_levels:access_aware) as the census
// measures it: the lookups each table saw, from RocksDB's sampled reads
// (table/census/read_samples.h), where a key range's lookups go
// (table/census/live_traffic.h), and through RocksDB, a compaction sized by
// them. The model's side (the FP a table gets from them) is in
// table_fp_target_test.cc, the shares' estimate in share_of_gets_test.cc.
// Expected values are worked out by hand from the contracts.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "db_test_util.h"
#include "filter/allocation/filters_by_run.h"
#include "filter/allocation/table_fp_target.h"
#include "filter/allocation/traffic_parts.h"
#include "filter/fp_target.h"
#include "gtest/gtest.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "table/census/census_listener.h"
#include "table/census/census_registry.h"
#include "table/census/live_traffic.h"
#include "table/census/open_db.h"
#include "table/census/read_samples.h"
#include "table/census/traffic_file.h"
#include "table/rocksdb/registration.h"

namespace sstfilter {
namespace {

rocksdb::LiveFileMetaData File(uint64_t number, int level, uint64_t sampled_gets,
                               const std::string& smallest = "a",
                               const std::string& largest = "z") {
  rocksdb::LiveFileMetaData f;
  f.file_number = number;
  f.level = level;
  f.column_family_name = "default";
  f.num_reads_sampled = static_cast<uint64_t>(sampled_gets * kSampleEvery);
  f.smallestkey = smallest, f.largestkey = largest;
  return f;
}

TEST(ReadSamplesTest, CountsWhatEachTableGainedBetweenReadings) {
  ReadSamples samples;
  std::vector<rocksdb::LiveFileMetaData> files = {File(1, 6, 0), File(2, 6, 0), File(3, 5, 0),
                                                  File(4, 0, 0)};
  samples.Update(files, {});
  EXPECT_EQ(samples.Gets("default"), 0);
  // Two L6 tables 30 + 10, L5 25, one L0 table 50: the Gets are 50.
  files = {File(1, 6, 30), File(2, 6, 10), File(3, 5, 25), File(4, 0, 50)};
  samples.Update(files, {});
  EXPECT_DOUBLE_EQ(samples.Gets("default"), 50);
  EXPECT_DOUBLE_EQ(samples.tables().at(1).samples, 30);
  EXPECT_DOUBLE_EQ(samples.tables().at(1).exposure, 50);
  EXPECT_DOUBLE_EQ(samples.tables().at(4).samples, 50);
  // Table 5 born half way through the next interval; table 6 unknown (its
  // 100 have no window); table 1's count went down (a new table of that
  // number): all 3 it holds are new.
  files = {File(1, 6, 3), File(2, 6, 10), File(3, 5, 25), File(4, 0, 50), File(5, 6, 8),
           File(6, 6, 100)};
  samples.Update(files, {{5, 0.5}});
  const double gets = 11;  // L6: 3 + 0 + 8.
  const double decay = std::exp(-gets / kDecayGets);
  EXPECT_DOUBLE_EQ(samples.Gets("default"), 50 * decay + gets);
  EXPECT_DOUBLE_EQ(samples.tables().at(1).samples, 30 * decay + 3);
  EXPECT_DOUBLE_EQ(samples.tables().at(2).exposure, 50 * decay + gets);
  EXPECT_DOUBLE_EQ(samples.tables().at(5).samples, 8);
  EXPECT_DOUBLE_EQ(samples.tables().at(5).exposure, 0.5 * gets);
  EXPECT_DOUBLE_EQ(samples.tables().at(6).samples, 0);
  EXPECT_DOUBLE_EQ(samples.tables().at(6).exposure, 0);
  // Gone tables are forgotten; table 6 counts from its last reading.
  samples.Update({File(6, 6, 110)}, {});
  EXPECT_EQ(samples.tables().count(1), 0u);
  EXPECT_DOUBLE_EQ(samples.tables().at(6).samples, 10);
}

// RocksDB starts each table's count at zero when the DB opens: the first
// reading (a process that reads before it first flushes, as db_bench's
// read benchmarks do) counts all they hold, every table lived all along.
TEST(ReadSamplesTest, TheFirstReadingCountsTheGetsSinceTheDbOpened) {
  ReadSamples samples;
  samples.Update({File(1, 6, 30), File(2, 6, 10), File(3, 5, 25)}, {});
  EXPECT_DOUBLE_EQ(samples.Gets("default"), 40);
  EXPECT_DOUBLE_EQ(samples.tables().at(1).samples, 30);
  EXPECT_DOUBLE_EQ(samples.tables().at(1).exposure, 40);
  EXPECT_DOUBLE_EQ(samples.tables().at(3).samples, 25);
  EXPECT_DOUBLE_EQ(samples.tables().at(3).exposure, 40);
}

// A reopened DB: tables 1 and 2 of the last instance's file are taken up
// at their shares and exposures, table 9 (gone since) is not, table 3 (not
// in the file) counts from the DB's opening. Each reading's Gets (20 at
// the next, L6's) add to and decay the carried counts as to counts of the
// DB's own.
TEST(ReadSamplesTest, ACarriedCountGoesOnAsItsOwnWould) {
  ReadSamples samples;
  std::vector<rocksdb::LiveFileMetaData> files = {File(1, 6, 0), File(2, 6, 0), File(3, 5, 0)};
  samples.Carry(files, {{1, 0.75}, {2, 0.25}, {9, 1.0}}, {{1, 400}, {2, 100}, {9, 800}});
  EXPECT_DOUBLE_EQ(samples.Gets("default"), 400) << "the most a live table saw";
  EXPECT_DOUBLE_EQ(samples.tables().at(1).samples, 300);
  EXPECT_DOUBLE_EQ(samples.tables().at(2).exposure, 100);
  EXPECT_EQ(samples.tables().count(9), 0u);
  samples.Update(files, {});
  EXPECT_DOUBLE_EQ(samples.tables().at(1).samples, 300) << "a reading with no Gets since";
  samples.Update({File(1, 6, 15), File(2, 6, 5), File(3, 5, 7)}, {});
  const double decay = std::exp(-20 / kDecayGets);
  EXPECT_DOUBLE_EQ(samples.Gets("default"), 400 * decay + 20);
  EXPECT_DOUBLE_EQ(samples.tables().at(1).samples, 300 * decay + 15);
  EXPECT_DOUBLE_EQ(samples.tables().at(1).exposure, 400 * decay + 20);
  EXPECT_DOUBLE_EQ(samples.tables().at(2).samples, 25 * decay + 5);
  EXPECT_DOUBLE_EQ(samples.tables().at(3).samples, 7);
  EXPECT_DOUBLE_EQ(samples.tables().at(3).exposure, 20);
}

// The rebuild loop rewrote table 1 (30 of 50 sampled Gets) as tables 7
// and 8 (3 and 1 parts of its entries), born a quarter of the way through
// the next interval: they start from its counts, not from none, and add
// their own.
TEST(ReadSamplesTest, ARewrittenTablesCountsPassToWhatRewroteIt) {
  ReadSamples samples;
  samples.Update({File(1, 6, 0), File(2, 6, 0)}, {});
  samples.Update({File(1, 6, 30), File(2, 6, 20)}, {});
  samples.Rewritten(1, {{7, 3000}, {8, 1000}});
  samples.Rewritten(99, {{9, 1}});  // Not in the last reading: nothing to pass on.
  samples.Update({File(7, 6, 6), File(8, 6, 2), File(2, 6, 30), File(9, 6, 4)},
                 {{7, 0.75}, {8, 0.75}, {9, 0.75}});
  const double d = std::exp(-22 / kDecayGets);  // L6 gained 6 + 2 + 10 + 4.
  ASSERT_DOUBLE_EQ(samples.Gets("default"), 50 * d + 22);
  EXPECT_DOUBLE_EQ(samples.tables().at(7).samples, 0.75 * 30 * d + 6);
  EXPECT_DOUBLE_EQ(samples.tables().at(7).exposure, 50 * d + 0.75 * 22);
  EXPECT_DOUBLE_EQ(samples.tables().at(8).samples, 0.25 * 30 * d + 2);
  EXPECT_DOUBLE_EQ(samples.tables().at(8).exposure, 50 * d + 0.75 * 22);
  EXPECT_DOUBLE_EQ(samples.tables().at(9).samples, 4) << "born of no table read";
  EXPECT_DOUBLE_EQ(samples.tables().at(9).exposure, 0.75 * 22);
  // Once read, the heirs are gone: a later table of such a number starts anew.
  samples.Update({File(7, 6, 6)}, {});
  samples.Update({File(7, 6, 6), File(8, 6, 0)}, {{8, 1}});
  EXPECT_DOUBLE_EQ(samples.tables().at(8).samples, 0);
}

// Another job's completion may read the tree between the rewrite's install
// and the loop telling it: that reading sees the heir as a table it does
// not know and no longer the parent. Told after it, the heir still goes on
// from its parent's counts, not from none.
TEST(ReadSamplesTest, ARewriteToldAfterAReadingThatSawItsHeirPassesItsCounts) {
  ReadSamples samples;
  samples.Update({File(1, 6, 0), File(2, 6, 0)}, {});
  samples.Update({File(1, 6, 30), File(2, 6, 20)}, {});  // Table 1: 30 of 50.
  // Neither the rewrite nor the heir's birth told yet: the heir is a table
  // of no known window, counted from here.
  samples.Update({File(7, 6, 4), File(2, 6, 30)}, {});  // L6 gained 10.
  ASSERT_DOUBLE_EQ(samples.tables().at(7).samples, 0);
  samples.Rewritten(1, {{7, 1000}});
  const double d = std::exp(-10 / kDecayGets);  // As that reading left the parent's.
  EXPECT_DOUBLE_EQ(samples.tables().at(7).samples, 30 * d);
  EXPECT_DOUBLE_EQ(samples.tables().at(7).exposure, 50 * d);
  // The next reading goes on from there.
  samples.Update({File(7, 6, 10), File(2, 6, 40)}, {});  // L6 gained 6 + 10.
  const double e = std::exp(-16 / kDecayGets);
  EXPECT_DOUBLE_EQ(samples.tables().at(7).samples, 30 * d * e + 6);
  EXPECT_DOUBLE_EQ(samples.tables().at(7).exposure, 50 * d * e + 16);
  // Only the last reading's gone tables: a parent two readings gone passes nothing.
  samples.Rewritten(1, {{8, 1}});
  samples.Update({File(7, 6, 10), File(2, 6, 40), File(8, 6, 1)}, {{8, 1}});
  EXPECT_DOUBLE_EQ(samples.tables().at(8).samples, 1);
}

// Ten L6 tables, read 300 sampled Gets at a time: half of them to the hot
// table, 16 to each other. Where the hot table stays, no window is told
// moved; where it moves (from table 1 to table 5), the first window after
// tells it and what came before weighs kKeptOnMove of what it did: the
// new hot table's share is its window's, near half, not a blend near
// the old counts' 5%.
struct MoveReadings {
  // Each table's gain at a reading with `hot` the hot table.
  static std::map<uint64_t, double> HotAt(uint64_t hot) {
    std::map<uint64_t, double> gains;
    for (uint64_t t = 1; t <= 10; ++t) gains[t] = t == hot ? 156 : 16;
    return gains;
  }
  // A reading after `gains` more sampled Gets (the live tables: its keys),
  // each a Poisson draw of its mean where `rng` is given.
  void Read(const std::map<uint64_t, double>& gains, std::mt19937_64* rng = nullptr) {
    std::vector<rocksdb::LiveFileMetaData> files;
    for (const auto& [t, mean] : gains) {
      total_[t] += rng == nullptr ? mean : std::poisson_distribution<int>(mean)(*rng);
      files.push_back(File(t, 6, static_cast<uint64_t>(total_[t])));
    }
    samples_.Update(files, {});
  }
  double Share(uint64_t t) const {
    const TableSamples& s = samples_.tables().at(t);
    return s.samples / s.exposure;
  }

  ReadSamples samples_;
  std::map<uint64_t, double> total_;
};
class ReadSamplesMoveTest : public ::testing::Test, public MoveReadings {};

TEST_F(ReadSamplesMoveTest, SharesThatHoldStillAreKept) {
  for (int i = 0; i < 12; ++i) Read(HotAt(1));
  EXPECT_EQ(samples_.Moves("default"), 0);
  EXPECT_NEAR(Share(1), 156.0 / 300, 1e-9);
  double gets = 0;  // Nothing forgotten but by the decay.
  for (int i = 0; i < 12; ++i) gets = gets * std::exp(-300 / kDecayGets) + 300;
  EXPECT_NEAR(samples_.Gets("default"), gets, 1e-6);
}

TEST_F(ReadSamplesMoveTest, AWindowWhoseHotTableMovedForgetsWhatCameBefore) {
  for (int i = 0; i < 12; ++i) Read(HotAt(1));
  const double gets_before = samples_.Gets("default");
  Read(HotAt(5));
  EXPECT_EQ(samples_.Moves("default"), 1);
  // Not forgotten, the blend would be 0.13 and 0.44.
  EXPECT_GT(Share(5), 0.3) << "the window's 0.52, with a tenth of the 5% before";
  EXPECT_LT(Share(1), 0.25);
  const double decay = std::exp(-300 / kDecayGets);
  EXPECT_NEAR(samples_.Gets("default"), 300 + kKeptOnMove * gets_before * decay, 1e-6);
  for (int i = 0; i < 12; ++i) Read(HotAt(5));
  EXPECT_EQ(samples_.Moves("default"), 1) << "the new shares hold still";
  EXPECT_NEAR(Share(5), 156.0 / 300, 0.01);
}

// The same with Poisson draws of the counts, twenty times: one move each,
// not a second one told on the old workload's remainder.
TEST(ReadSamplesMoveDrawsTest, AMoveIsToldOnce) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    MoveReadings draws;
    std::mt19937_64 rng(seed);
    for (int i = 0; i < 12; ++i) draws.Read(draws.HotAt(1), &rng);
    EXPECT_EQ(draws.samples_.Moves("default"), 0) << "seed " << seed;
    for (int i = 0; i < 15; ++i) draws.Read(draws.HotAt(5), &rng);
    EXPECT_EQ(draws.samples_.Moves("default"), 1) << "seed " << seed;
  }
}

// The loop rewrote the hot table as two of half its entries each, one of
// which holds 95% of its Gets: each heir's part of its parent's counts
// is by entries, not what its range drew, so neither is tested, and
// traffic that holds still is not told moved.
TEST_F(ReadSamplesMoveTest, ARewritesHeirsAreNotTested) {
  for (int i = 0; i < 12; ++i) Read(HotAt(1));
  samples_.Rewritten(1, {{11, 500}, {12, 500}});
  std::map<uint64_t, double> gains = HotAt(1);
  gains.erase(1);
  gains[11] = 148, gains[12] = 8;
  for (int i = 0; i < 12; ++i) Read(gains);
  EXPECT_EQ(samples_.Moves("default"), 0);
}

// Two L6 tables, "a".."m" and "n".."z", 1000 keys each; the first saw
// 900 of 1000 sampled Gets. An L5 table over "a".."m", born just before
// the reading: 20 sampled Gets in its sliver of the interval (share 1).
struct TwoTableTree {
  ReadSamples samples;
  std::vector<rocksdb::LiveFileMetaData> files;
  std::map<uint64_t, uint64_t> entries = {{1, 1000}, {2, 1000}, {3, 100}};

  TwoTableTree() {
    files = {File(1, 6, 0, "a", "m"), File(2, 6, 0, "n", "z")};
    samples.Update(files, {});
    files = {File(1, 6, 900, "a", "m"), File(2, 6, 100, "n", "z"), File(3, 5, 20, "a", "m")};
    samples.Update(files, {{3, 0.001}});
  }
  TreeTraffic Traffic() const { return MeasureTraffic(files, samples, entries, {}).at("default"); }
};

TEST(TreeTrafficTest, EachTablesShareAndARangesShare) {
  const TreeTraffic traffic = TwoTableTree().Traffic();
  EXPECT_DOUBLE_EQ(traffic.gets, 1000);
  EXPECT_TRUE(traffic.known());
  ASSERT_EQ(traffic.levels.size(), 7u);
  ASSERT_EQ(traffic.levels[6].size(), 2u);
  const TableTraffic& hot = traffic.levels[6][0];
  EXPECT_EQ(hot.range.smallest, "a");
  EXPECT_DOUBLE_EQ(hot.uniform, 0.5);
  EXPECT_DOUBLE_EQ(hot.share, (900.0 + 2) / (1000 + 2 / 0.5));
  EXPECT_DOUBLE_EQ(hot.evidence, 1000 * 0.5);
  EXPECT_DOUBLE_EQ(traffic.levels[5][0].share, 1);
  // Half the first table's span ('a' to 'g' of 'a' to 'm'): half its share,
  // from L6, which has seen far more than L5 (lived 0.001 of the interval;
  // its half would be 0.5).
  EXPECT_NEAR(traffic.ShareOf("a", "g"), hot.share / 2, 1e-12);
  EXPECT_NEAR(traffic.ShareOf("a", "z"), hot.share + traffic.levels[6][1].share, 1e-12);
  EXPECT_EQ(traffic.ShareOf("0", "1"), 0) << "no table holds it";
  // L6's tables lived through every counted Get; L5's through 0.001 of
  // the interval's.
  EXPECT_NEAR(traffic.LivedAt(6, "a", "z"), 1, 1e-12);
  EXPECT_NEAR(traffic.LivedAt(5, "a", "g"), 0.001, 1e-12);
  EXPECT_EQ(traffic.LivedAt(4, "a", "z"), 0) << "no table there";
  // The sampled Gets a range's share rests on: each table's own, by its
  // part of the range.
  EXPECT_DOUBLE_EQ(traffic.SampledAt(6, "a", "m"), 900);
  EXPECT_NEAR(traffic.SampledAt(6, "a", "g"), 450, 1e-9);
  EXPECT_DOUBLE_EQ(traffic.SampledAt(6, "a", "z"), 1000);
  EXPECT_DOUBLE_EQ(traffic.SampledAt(5, "a", "m"), 20) << "its own 20, whatever its exposure";
  EXPECT_EQ(traffic.SampledAt(4, "a", "z"), 0) << "no table there";
}

// The advisor's traffic (TrafficOf, from a traffic file's shares): each
// table's sampled Gets where given, else none known.
TEST(TreeTrafficTest, TheAdvisorsTrafficCarriesTheSampledGetsGiven) {
  TreeRun run;
  run.level = 6;
  for (const auto& [number, smallest, largest] :
       {std::tuple{1, "a", "m"}, std::tuple{2, "n", "z"}}) {
    TableFilters table;
    table.file_number = number, table.level = 6, table.keys = 1000;
    table.smallest = smallest, table.largest = largest;
    run.tables.push_back(table);
  }
  const auto share = [](const TableFilters& t) { return t.file_number == 1 ? 0.9 : 0.1; };
  const TreeTraffic given =
      TrafficOf({run}, share, [](const TableFilters& t) { return 400.0 * t.file_number; });
  EXPECT_DOUBLE_EQ(given.SampledAt(6, "a", "m"), 400);
  EXPECT_DOUBLE_EQ(given.SampledAt(6, "a", "z"), 1200);
  EXPECT_EQ(TrafficOf({run}, share).SampledAt(6, "a", "z"), 0);
}

TEST(TreeTrafficTest, UnknownBelowTheLeastGets) {
  ReadSamples samples;
  samples.Update({File(1, 6, 0)}, {});
  samples.Update({File(1, 6, kMinTrafficGets / 2)}, {});
  const TreeTraffic traffic =
      MeasureTraffic({File(1, 6, kMinTrafficGets / 2)}, samples, {{1, 10}}, {}).at("default");
  EXPECT_FALSE(traffic.known());
}

// Through RocksDB: the Gets it samples reach the census, and a compaction
// then gives the tables of the range they hit more bits per key than the
// tables of a range they miss.
// "k" and the number in 4 big-endian bytes: keys spread evenly over the
// byte positions that key ranges are measured in (run_reach.h).
std::string Key(int i) {
  std::string key = "k";
  for (int shift = 24; shift >= 0; shift -= 8) {
    key.push_back(static_cast<char>((i >> shift) & 0xff));
  }
  return key;
}

TEST(AccessAwareDbTest, SampledGetsReachTheCensusAndSizeTheNextCompaction) {
  EnsureRocksDbFilterPoliciesRegistered();
  testing::TempDir dir;
  rocksdb::Options options;
  options.create_if_missing = true;
  options.compression = rocksdb::kNoCompression;
  options.target_file_size_base = 128 << 10;  // ~1,000 keys a table.
  options.disable_auto_compactions = true;
  const auto listener = std::make_shared<LevelCensusListener>(0.0);  // Read at each event.
  options.listeners.push_back(listener);
  rocksdb::BlockBasedTableOptions table;
  // No rebuild loop: what is read here is the census's counts of the tables
  // built below. Where the Gets are slow (a sanitizer, a loaded machine),
  // the loop's reckoning came during them and rewrote a hot table, whose
  // heir the traffic file then did not name yet.
  ASSERT_TRUE(rocksdb::FilterPolicy::CreateFromString(
                  rocksdb::ConfigOptions(),
                  "sstfilter.bloom:10:cache_local:optimize_levels:access_aware:rebuild_mb_s:0",
                  &table.filter_policy)
                  .ok());
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  std::unique_ptr<rocksdb::DB> db;
  ASSERT_TRUE(OpenDb(options, dir.path(), &db).ok());
  constexpr int kKeys = 20000;
  for (int i = 0; i < kKeys; ++i) {
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), Key(i), std::string(100, 'v')).ok());
    if (i % 1000 == 999) {
      ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
    }
  }
  // Rewritten, not moved: ~20 tables in key order.
  rocksdb::CompactRangeOptions rewrite;
  rewrite.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  ASSERT_TRUE(db->CompactRange(rewrite, nullptr, nullptr).ok());
  const auto flush_one = [&](const std::string& key) {
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, "v").ok());
    ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  };
  flush_one("z1");  // The counts' first reading.
  // 150,000 absent-key Gets in the lowest tenth of the keys (~146 sampled).
  std::string value;
  for (int i = 0; i < 150000; ++i) {
    ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), Key(i % (kKeys / 10)) + "x", &value).IsNotFound());
  }
  flush_one("z2");  // The second: what each table gained.
  const auto runs = LevelCensus::Instance().Find(CensusKeyOf(db.get()), "default");
  ASSERT_NE(runs, nullptr);
  ASSERT_NE(runs->traffic, nullptr);
  EXPECT_TRUE(runs->traffic->known()) << runs->traffic->gets << " sampled Gets";
  EXPECT_GT(runs->traffic->ShareOf(Key(0), Key(kKeys / 10 - 1)), 0.8);
  EXPECT_LT(runs->traffic->ShareOf(Key(kKeys / 2), Key(kKeys - 1)), 0.1);
  // The summary for the advisor, in the DB's directory (traffic_file.h),
  // written on the census's own thread.
  listener->WaitForFiles();
  std::ifstream file(dir.path() + "/" + kTrafficFileName);
  std::stringstream text;
  text << file.rdbuf();
  const absl::StatusOr<TrafficSummary> summary = ParseTrafficFile(text.str());
  ASSERT_TRUE(summary.ok()) << summary.status() << ": " << text.str();
  const TableShares* shares = &summary->tables;
  // The hot tenth spans two or three tables: together they hold the Gets.
  std::vector<rocksdb::LiveFileMetaData> live;
  db->GetLiveFilesMetaData(&live);
  double hot_share = 0;
  for (const rocksdb::LiveFileMetaData& f : live) {
    const auto share = shares->find(f.file_number);
    if (share != shares->end() && f.smallestkey < Key(kKeys / 10)) hot_share += share->second;
  }
  EXPECT_GT(hot_share, 0.8) << text.str();

  // Rewritten with the traffic known: bits per key by range.
  ASSERT_TRUE(db->CompactRange(rewrite, nullptr, nullptr).ok());
  rocksdb::TablePropertiesCollection tables;
  ASSERT_TRUE(db->GetPropertiesOfAllTables(&tables).ok());
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  double hot_bits = 0, hot_keys = 0, cold_bits = 0, cold_keys = 0;
  for (const rocksdb::LiveFileMetaData& f : files) {
    const auto props = tables.find(f.db_path + f.name);
    ASSERT_NE(props, tables.end()) << f.db_path + f.name;
    if (f.largestkey < Key(kKeys / 10)) {
      hot_bits += 8.0 * props->second->filter_size, hot_keys += props->second->num_entries;
    } else if (f.smallestkey >= Key(kKeys / 2) && f.smallestkey < "z") {
      cold_bits += 8.0 * props->second->filter_size, cold_keys += props->second->num_entries;
    }
  }
  ASSERT_GT(hot_keys, 0);
  ASSERT_GT(cold_keys, 0);
  EXPECT_GT(hot_bits / hot_keys, cold_bits / cold_keys + 3)
      << "hot " << hot_bits / hot_keys << " cold " << cold_bits / cold_keys << " bits/key";
  // Every key still found.
  for (int i = 0; i < kKeys; i += 97) {
    ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), Key(i), &value).ok()) << Key(i);
  }
}

}  // namespace
}  // namespace sstfilter
