// The filters' sampled answers (table/census/filter_answers.h), counted by
// RocksDB's readers of our filters: each sample stands for the queries it
// was drawn from, whichever reader of a round a thread's queries go to;
// over absent keys a filter answers "may match" for the control keys as
// often as for the keys.
#include "table/census/filter_answers.h"

#include <memory>
#include <string>
#include <vector>

#include "db_test_util.h"
#include "gtest/gtest.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/table.h"
#include "table/rocksdb/bits_reader_factory.h"
#include "table/rocksdb/rocksdb_filter_policy.h"
#include "table/rocksdb/rocksdb_internal.h"

namespace sstfilter {
namespace {

// A filter of 10,000 keys at 4 bits per key (FP about 15%), built through
// the policy as a table's is.
std::string BuildFilter(uint32_t seed) {
  const std::shared_ptr<const rocksdb::FilterPolicy> policy =
      NewRocksDbFilterPolicy(
          FilterOptions{4.0, std::nullopt, EncodingId::kCacheLocal, std::nullopt})
          .value();
  rocksdb::BlockBasedTableOptions table;
  rocksdb::FilterBuildingContext context(table);
  std::unique_ptr<rocksdb::FilterBitsBuilder> builder(policy->GetBuilderWithContext(context));
  for (const std::string& key : testing::RandomKeys(10000, seed)) builder->AddKey(key);
  std::unique_ptr<const char[]> buf;
  return builder->Finish(&buf).ToString();
}

// Eight readers queried in turn, as an absent-key Get queries eight runs,
// single keys or MultiGet batches of 16: every reader's counts stand for
// its queries (a fixed sampling period of 8 would put every sample on one
// reader), and its control keys' positives are its false positives.
void QueryInTurn(bool batched) {
  constexpr int kReaders = 8;
  constexpr size_t kQueriesEach = 100000;
  std::vector<std::string> filters;
  std::vector<std::shared_ptr<FilterAnswers>> answers;
  std::vector<std::unique_ptr<rocksdb::FilterBitsReader>> readers;
  for (int r = 0; r < kReaders; ++r) {
    filters.push_back(BuildFilter(100 + r));
    answers.push_back(std::make_shared<FilterAnswers>());
    readers.emplace_back(NewBitsReader(filters.back(), answers.back()));
  }
  const std::vector<std::string> keys = testing::AbsentKeys(kQueriesEach, 7);
  constexpr size_t kBatch = 16;
  for (size_t i = 0; i < keys.size(); i += kBatch) {
    for (int r = 0; r < kReaders; ++r) {
      if (!batched) {
        for (size_t k = i; k < i + kBatch; ++k) readers[r]->MayMatch(keys[k]);
        continue;
      }
      std::vector<rocksdb::Slice> slices(keys.begin() + i, keys.begin() + i + kBatch);
      std::vector<rocksdb::Slice*> pointers;
      for (rocksdb::Slice& s : slices) pointers.push_back(&s);
      bool may_match[kBatch];
      readers[r]->MayMatch(static_cast<int>(kBatch), pointers.data(), may_match);
    }
  }
  for (int r = 0; r < kReaders; ++r) {
    const AnswerCounts counts = answers[r]->counts();
    EXPECT_NEAR(static_cast<double>(counts.queries), kQueriesEach, 0.06 * kQueriesEach)
        << "reader " << r;
    // An FP rate of about 15%: positives and control positives alike.
    EXPECT_NEAR(static_cast<double>(counts.positives), 0.15 * kQueriesEach, 0.04 * kQueriesEach)
        << "reader " << r;
    EXPECT_NEAR(static_cast<double>(counts.control_positives),
                static_cast<double>(counts.positives), 0.03 * kQueriesEach)
        << "reader " << r;
  }
}

TEST(FilterAnswersTest, EachReaderOfARoundIsSampledForItsQueries) { QueryInTurn(false); }
TEST(FilterAnswersTest, MultiGetBatchesAreSampledForTheirKeys) { QueryInTurn(true); }

// TakeNew hands each count to one reading.
TEST(FilterAnswersTest, EachCountIsTakenOnce) {
  FilterAnswers answers;
  answers.Add(true, false);
  const AnswerCounts first = answers.TakeNew();
  EXPECT_EQ(first.queries, FilterAnswers::SampleEvery());
  EXPECT_EQ(first.positives, FilterAnswers::SampleEvery());
  EXPECT_EQ(answers.TakeNew().queries, 0u);
  answers.Add(false, true);
  const AnswerCounts second = answers.TakeNew();
  EXPECT_EQ(second.control_positives, FilterAnswers::SampleEvery());
  EXPECT_EQ(second.control_positives_of_positives, 0u);
}

// A control key is another key than its query's, distinct for distinct
// keys, long ones and the empty key too.
TEST(FilterAnswersTest, ControlKeysDifferFromTheirKeysAndFromEachOther) {
  const auto control_of = [](const std::string& key) {
    std::string control;
    QueryControlKey(key, [&](std::string_view c) {
      control = std::string(c);
      return false;
    });
    return control;
  };
  const std::string long_a(100, 'a'), long_b = "b" + std::string(99, 'a');
  std::vector<std::string> controls;
  for (const std::string& key :
       {std::string(), std::string("k1"), std::string("k2"), long_a, long_b}) {
    controls.push_back(control_of(key));
    EXPECT_NE(controls.back(), key);
  }
  for (size_t i = 0; i < controls.size(); ++i) {
    for (size_t j = i + 1; j < controls.size(); ++j) EXPECT_NE(controls[i], controls[j]);
  }
}

}  // namespace
}  // namespace sstfilter
