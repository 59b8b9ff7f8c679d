// The FilterBitsBuilder/Reader contract RocksDB relies on, checked on the
// adapters directly (the DB-level tests check the same end to end).
#include <atomic>
#include <memory>
#include <thread>
#include <string>
#include <vector>

#include "db_test_util.h"
#include "filter/filter_format.h"
#include "gtest/gtest.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/table.h"
#include "table/rocksdb/rocksdb_bloom_policy.h"
#include "table/rocksdb/rocksdb_internal.h"

namespace sstfilter {
namespace {

using testing::AbsentKeys;
using testing::RandomKeys;

class BitsAdapterTest : public ::testing::TestWithParam<FilterFormat> {
 protected:
  std::unique_ptr<rocksdb::FilterBitsBuilder> NewBuilder(bool post_verify = false) {
    table_.detect_filter_construct_corruption = post_verify;
    rocksdb::FilterBuildingContext context(table_);
    return std::unique_ptr<rocksdb::FilterBitsBuilder>(
        policy_->GetBuilderWithContext(context));
  }

  std::string Build(rocksdb::FilterBitsBuilder* builder,
                    const std::vector<std::string>& keys) {
    for (const std::string& key : keys) builder->AddKey(key);
    std::unique_ptr<const char[]> buf;
    rocksdb::Slice filter = builder->Finish(&buf);
    return filter.ToString();
  }

  std::unique_ptr<rocksdb::FilterBitsReader> NewReader(const std::string& filter) {
    return std::unique_ptr<rocksdb::FilterBitsReader>(policy_->GetFilterBitsReader(filter));
  }

  std::shared_ptr<const rocksdb::FilterPolicy> policy_ =
      NewRocksDbBloomPolicy(BloomOptions{10.0, std::nullopt, GetParam()}).value();
  rocksdb::BlockBasedTableOptions table_;
};

TEST_P(BitsAdapterTest, AdjacentDuplicatesAreCountedOnce) {
  auto builder = NewBuilder();
  for (const std::string& key : RandomKeys(100, 1)) {
    builder->AddKey(key);
    builder->AddKey(key);
  }
  EXPECT_EQ(builder->EstimateEntriesAdded(), 100u);
}

TEST_P(BitsAdapterTest, FinishResetsForTheNextPartition) {
  const auto first = RandomKeys(1000, 2), second = RandomKeys(500, 3);
  auto reused = NewBuilder();
  Build(reused.get(), first);
  EXPECT_EQ(reused->EstimateEntriesAdded(), 0u);
  auto fresh = NewBuilder();
  EXPECT_EQ(Build(reused.get(), second), Build(fresh.get(), second));
}

TEST_P(BitsAdapterTest, NoFalseNegativesSingleOrBatched) {
  const auto keys = RandomKeys(5000, 4);
  auto builder = NewBuilder();
  const std::string filter = Build(builder.get(), keys);
  auto reader = NewReader(filter);
  std::vector<std::string> probe = keys;
  const auto absent = AbsentKeys(5000, 4);
  probe.insert(probe.end(), absent.begin(), absent.end());
  for (size_t base = 0; base < probe.size(); base += 29) {  // Odd batch sizes too.
    const int n = static_cast<int>(std::min<size_t>(29, probe.size() - base));
    std::vector<rocksdb::Slice> slices;
    for (int i = 0; i < n; ++i) slices.emplace_back(probe[base + i]);
    std::vector<rocksdb::Slice*> pointers;
    for (auto& s : slices) pointers.push_back(&s);
    // Only may_match[0] is preset by RocksDB: poison the rest both ways.
    for (bool poison : {false, true}) {
      std::unique_ptr<bool[]> may_match(new bool[n]);
      std::fill(may_match.get(), may_match.get() + n, poison);
      reader->MayMatch(n, pointers.data(), may_match.get());
      for (int i = 0; i < n; ++i) {
        ASSERT_EQ(may_match[i], reader->MayMatch(slices[i])) << base + i;
        if (base + i < keys.size()) {
          ASSERT_TRUE(may_match[i]);
        }
      }
    }
  }
}

TEST_P(BitsAdapterTest, ApproximateNumEntriesInvertsTheSize) {
  auto builder = NewBuilder();
  for (size_t bytes : {0, 1, 9, 10, 64, 100, 1000, 4096, 4097, 65536, 1 << 18}) {
    const size_t n = builder->ApproximateNumEntries(bytes);
    // The filter for n entries fits; one more entry would not.
    for (size_t extra : {size_t{0}, size_t{1}}) {
      const std::vector<std::string> keys = RandomKeys(n + extra, 5);
      auto b = NewBuilder();
      const size_t size = Build(b.get(), keys).size();
      if (extra == 0 && n > 0) {
        EXPECT_LE(size, bytes) << "n=" << n;
      }
      if (extra == 1) {
        EXPECT_GT(size, bytes) << "n+1=" << n + 1;
      }
    }
  }
}

TEST_P(BitsAdapterTest, PostVerifyAcceptsGoodAndCatchesLostBits) {
  const auto keys = RandomKeys(2000, 6);
  auto builder = NewBuilder(/*post_verify=*/true);
  for (const std::string& key : keys) builder->AddKey(key);
  std::unique_ptr<const char[]> buf;
  rocksdb::Slice filter = builder->Finish(&buf);
  EXPECT_TRUE(builder->MaybePostVerify(filter).ok());

  auto damaged_builder = NewBuilder(/*post_verify=*/true);
  for (const std::string& key : keys) damaged_builder->AddKey(key);
  filter = damaged_builder->Finish(&buf);
  std::string damaged = filter.ToString();
  std::fill(damaged.begin(), damaged.begin() + damaged.size() / 2, '\0');  // Lose bits.
  rocksdb::Status s = damaged_builder->MaybePostVerify(damaged);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
}

TEST_P(BitsAdapterTest, SharedReaderAnswersTheSameFromManyThreads) {
  const auto keys = RandomKeys(3000, 7);
  auto builder = NewBuilder();
  const std::string filter = Build(builder.get(), keys);
  auto reader = NewReader(filter);
  std::vector<std::thread> threads;
  std::atomic<int> misses{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (const std::string& key : keys) misses += !reader->MayMatch(key);
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(misses.load(), 0);
}

INSTANTIATE_TEST_SUITE_P(Formats, BitsAdapterTest,
                         ::testing::ValuesIn(AllFormats()),
                         [](const auto& info) {
                           return std::string(FormatName(info.param));
                         });

}  // namespace
}  // namespace sstfilter
