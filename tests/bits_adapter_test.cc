// The FilterBitsBuilder/Reader contract RocksDB relies on, checked on the
// adapters directly (the DB-level tests check the same end to end).
#include <atomic>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "db_test_util.h"
#include "filter/banded/format.h"
#include "filter/encodings.h"
#include "filter/fp_target.h"
#include "gtest/gtest.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/table.h"
#include "table/rocksdb/bits_builder_adapter.h"
#include "table/rocksdb/bits_reader_adapter.h"
#include "table/rocksdb/rocksdb_filter_policy.h"
#include "table/rocksdb/rocksdb_internal.h"

namespace sstfilter {
namespace {

using testing::AbsentKeys;
using testing::RandomKeys;

class BitsAdapterTest : public ::testing::TestWithParam<EncodingId> {
 protected:
  std::unique_ptr<rocksdb::FilterBitsBuilder> NewBuilder(bool post_verify = false) {
    table_.detect_filter_construct_corruption = post_verify;
    // These tests check the encoding's own sizes; RocksDB 9.2 turned
    // optimize_filters_for_memory on by default (db_memory_sizing_test).
    table_.optimize_filters_for_memory = false;
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
      NewRocksDbFilterPolicy(FilterOptions{10.0, std::nullopt, GetParam(), std::nullopt}).value();
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

// AddKeyAndAlt's contract (RocksDB 9.6+; the adapter has it in every
// version): with keys k and alts a (prefixes),
//   AddKey(k1); AddKeyAndAlt(k2, a2);  de-dup k2<>k1, k2<>a2, a2<>k1
//   AddKeyAndAlt(k3, a3);              de-dup k3<>k2, a3<>a2, k3<>a2, a3<>k2
//   AddKey(k4);                        de-dup k4<>k3 but not k4<>a3
// Entries are counted by EstimateEntriesAdded (each distinct entry once),
// and every key and alt must match the finished filter.
template <typename E>
void CheckAddKeyAndAlt() {
  BitsBuilderAdapter<E> b(typename E::Builder(10.0), /*post_verify=*/false);
  std::vector<std::string> added;
  auto expect = [&](size_t entries, const char* step) {
    EXPECT_EQ(b.EstimateEntriesAdded(), entries) << E::kInfo.name << ": " << step;
  };
  EXPECT_EQ(b.EstimateEntriesAdded(), 0u);
  b.AddKey("apple1");
  expect(1, "first key");
  b.AddKeyAndAlt("apple2", "apple1");  // Alt equals the previous key.
  expect(2, "alt == previous key");
  b.AddKeyAndAlt("apple3", "apple");  // New alt.
  expect(4, "new key and new alt");
  b.AddKeyAndAlt("apple", "apple");  // Key equals the previous alt and its own alt.
  expect(4, "key == previous alt == own alt");
  b.AddKeyAndAlt("apple", "appl");  // Key equals the previous key.
  expect(5, "key == previous key, new alt");
  b.AddKeyAndAlt("appl9", "apple");  // Alt equals the key before (previous key).
  expect(6, "alt == previous key");
  b.AddKey("apple");  // Equals the previous alt: AddKey does not de-dup that.
  expect(7, "AddKey after an alt");
  b.AddKey("apple");
  expect(7, "AddKey == previous key");
  b.AddKeyAndAlt("banana", "banana");
  expect(8, "key is its own alt");
  std::unique_ptr<const char[]> buf;
  const rocksdb::Slice filter = b.Finish(&buf);
  EXPECT_EQ(b.EstimateEntriesAdded(), 0u);
  const typename E::Reader reader(std::string_view(filter.data(), filter.size()));
  for (const char* entry : {"apple1", "apple2", "apple3", "apple", "appl", "appl9", "banana"}) {
    EXPECT_TRUE(reader.MayMatch(entry)) << E::kInfo.name << ": " << entry;
  }
  // After Finish nothing is remembered: the last key is added again.
  b.AddKeyAndAlt("banana", "banana");
  expect(1, "first entry after Finish");
}

TEST_P(BitsAdapterTest, AddKeyAndAltFollowsItsContract) {
  VisitEncoding(GetParam(), [](auto encoding) { CheckAddKeyAndAlt<decltype(encoding)>(); });
}

// What a built filter of these tests (10 bits/key, 8 columns at most) may
// differ from the size planned for its key count: banded's later layers
// are sized for the keys its layer 0 bumped (banded/filter.h), a block and
// a layer's trailer either way, and 0.5% more with many keys; the other
// encodings' sizes are a function of the key count.
size_t SizeSlack(EncodingId encoding, size_t bytes) {
  if (encoding != EncodingId::kBanded) return 0;
  return banded::BlockBytes(8) + 4 + bytes / 200;
}

// CalculateSpace is the size formula (RocksDB 10.9+ sizes tables with it)
// and EstimatedFpRate the encoding's model for a filter of those bytes.
TEST_P(BitsAdapterTest, SpaceAndFpEstimates) {
  VisitEncoding(GetParam(), [this](auto encoding) {
    using E = decltype(encoding);
    BitsBuilderAdapter<E> b(typename E::Builder(10.0), false);
    for (size_t n : {100, 1000, 10000}) {
      const std::vector<std::string> keys = RandomKeys(n, 11);
      auto fresh = NewBuilder();
      const size_t size = Build(fresh.get(), keys).size();
      EXPECT_NEAR(static_cast<double>(b.CalculateSpace(n)), static_cast<double>(size),
                  static_cast<double>(SizeSlack(GetParam(), size)))
          << n;
      // At its own size the estimate is the model at 10 bits/key, and the
      // describer's model of the built filter.
      const double model = E::kInfo.expected_fp_rate(n, 10.0);
      EXPECT_NEAR(b.EstimatedFpRate(n, size), model, 1e-12 * model) << n;
      EXPECT_LT(b.EstimatedFpRate(n, 2 * size), b.EstimatedFpRate(n, size)) << n;
      EXPECT_GT(b.EstimatedFpRate(2 * n, size), b.EstimatedFpRate(n, size)) << n;
    }
    EXPECT_EQ(b.EstimatedFpRate(0, 100), 0.0);
    EXPECT_EQ(b.EstimatedFpRate(10, 0), 1.0);
  });
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
  // Batches of odd sizes, MultiGet's largest (32), and more than one chunk
  // of 32 (readers split those), over present and absent keys.
  constexpr size_t kSizes[] = {29, 1, 32, 33, 7, 64, 31};
  size_t batches = 0;
  for (size_t base = 0, size = kSizes[0]; base < probe.size();
       base += size, size = kSizes[++batches % std::size(kSizes)]) {
    const int n = static_cast<int>(std::min<size_t>(size, probe.size() - base));
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
    const size_t slack = SizeSlack(GetParam(), bytes);
    // The filter for n entries fits; one more entry would not.
    for (size_t extra : {size_t{0}, size_t{1}}) {
      const std::vector<std::string> keys = RandomKeys(n + extra, 5);
      auto b = NewBuilder();
      const size_t size = Build(b.get(), keys).size();
      if (extra == 0 && n > 0) {
        EXPECT_LE(size, bytes + slack) << "n=" << n;
      }
      if (extra == 1) {
        EXPECT_GT(size + slack, bytes) << "n+1=" << n + 1;
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

// With fp_rate, each Finish writes the filter at the setting the FP target
// gives for that filter's entry count (filter/fp_target.h), not at the
// builder's initial (nominal) one: the same bytes as the encoding's own
// builder at that setting, partition after partition.
TEST_P(BitsAdapterTest, FpRateSetsEachFiltersBitsByItsSize) {
  FilterOptions options{10.0, 0.01, GetParam(), std::nullopt};
  policy_ = NewRocksDbFilterPolicy(options).value();
  auto builder = NewBuilder();
  const FpTarget target(0.01);
  bool any_differs_from_nominal = false;
  for (size_t n : {100, 3000, 100000, 40}) {
    const auto keys = RandomKeys(n, n);
    const std::string filter = Build(builder.get(), keys);
    VisitEncoding(GetParam(), [&](auto e) {
      using E = decltype(e);
      auto build_at = [&](double bits_per_key) {
        typename E::Builder direct(bits_per_key);
        for (const std::string& key : keys) direct.AddKey(key);
        std::string bytes;
        direct.Finish(&bytes);
        return bytes;
      };
      EXPECT_TRUE(filter == build_at(target.BitsPerKey(GetParam(), n))) << n;
      any_differs_from_nominal |= filter != build_at(target.BitsPerKey(GetParam(), kNominalFilterKeys));
    });
  }
  EXPECT_TRUE(any_differs_from_nominal) << "the test would not see a missing retune";
}

INSTANTIATE_TEST_SUITE_P(Encodings, BitsAdapterTest,
                         ::testing::ValuesIn(AllEncodingIds()),
                         [](const auto& info) {
                           return std::string(EncodingName(info.param));
                         });

}  // namespace
}  // namespace sstfilter
