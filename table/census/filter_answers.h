// What sstfilter's filter readers answered, sampled: the census's source of
// the share of Gets that find their key where the DB keeps no statistics
// (observed_hit_share.h; filter/allocation/gets_from_answers.h turns the
// counts into Gets).
//
// A reader (table/rocksdb/bits_reader_adapter.h) samples one query in
// kSampleEvery on each thread and counts it: whether the filter answered
// "may match", and whether it answers so for a control key, the query's key
// with kControlSalt appended (a key no table holds): over queries whose key
// is not there the two answer "may match" equally often, whatever each
// filter's FP rate. The counts are kept per policy object, which the census
// finds from a DB's options (FilterAnswersOf), as RocksDB gives a reader no
// table, level or DB.
#ifndef SSTFILTER_TABLE_CENSUS_FILTER_ANSWERS_H_
#define SSTFILTER_TABLE_CENSUS_FILTER_ANSWERS_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>

namespace sstfilter {

// Sampled counts, cumulative since the policy was made.
struct AnswerCounts {
  uint64_t queries = 0;    // Sampled queries.
  uint64_t positives = 0;  // Of those, answered "may match".
  // Those whose control key was answered "may match", and of them those
  // whose own key was too.
  uint64_t control_positives = 0;
  uint64_t control_positives_of_positives = 0;
};

// One policy's readers' counts. Thread-safe.
class FilterAnswers {
 public:
  // One sampled query in this many: a sample costs a second probe and two to
  // four atomic adds (a few ns a query on average). The share the samples
  // tell is as exact as the filters' false positives among them are few:
  // over a window of kAnsweredWindowGets Gets at about 0.2 false positives a
  // Get, within about 2% where a third of the found keys lie under filters
  // (filter/allocation/gets_from_answers.h).
  static constexpr uint32_t kSampleEvery = 8;
  static constexpr uint64_t kAnsweredWindowGets = 100000;
  // Appended to a sampled key to make its control key.
  static constexpr std::string_view kControlSalt = "\xffsstfilter-control";

  // Whether this thread's next query is one to sample: every kSampleEvery-th.
  static bool SampleNext() {
    thread_local uint32_t countdown = 0;
    if (countdown != 0) {
      --countdown;
      return false;
    }
    countdown = kSampleEvery - 1;
    return true;
  }

  // A sampled query's answer and its control key's.
  void Add(bool positive, bool control_positive) {
    queries_.fetch_add(1, std::memory_order_relaxed);
    if (positive) positives_.fetch_add(1, std::memory_order_relaxed);
    if (control_positive) {
      control_positives_.fetch_add(1, std::memory_order_relaxed);
      if (positive) control_positives_of_positives_.fetch_add(1, std::memory_order_relaxed);
    }
  }

  // The counts since the last call (since the policy was made, at the
  // first): the census takes each answer once, whichever DB instance it
  // reads them for (a DB reopened in the process keeps its policy object).
  AnswerCounts TakeNew();

  AnswerCounts counts() const {
    return {queries_.load(std::memory_order_relaxed), positives_.load(std::memory_order_relaxed),
            control_positives_.load(std::memory_order_relaxed),
            control_positives_of_positives_.load(std::memory_order_relaxed)};
  }

 private:
  std::atomic<uint64_t> queries_{0}, positives_{0}, control_positives_{0},
      control_positives_of_positives_{0};
  std::mutex taken_mu_;
  AnswerCounts taken_;  // The counts as of the last TakeNew.
};

// Calls `query` on `key`'s control key (key, then kControlSalt), built in
// a buffer on the stack; a key longer than the buffer keeps its last bytes.
template <typename Query>
bool QueryControlKey(std::string_view key, Query&& query) {
  constexpr size_t kMaxKey = 64;
  char control[kMaxKey + FilterAnswers::kControlSalt.size()];
  const std::string_view kept = key.size() > kMaxKey ? key.substr(key.size() - kMaxKey) : key;
  kept.copy(control, kept.size());
  FilterAnswers::kControlSalt.copy(control + kept.size(), FilterAnswers::kControlSalt.size());
  return query(std::string_view(control, kept.size() + FilterAnswers::kControlSalt.size()));
}

// The process-wide counts of each policy object, by its address: made by
// the policy (RegisterFilterAnswers) and held by its readers, which
// RocksDB's block cache may keep after the policy is gone.
std::shared_ptr<FilterAnswers> RegisterFilterAnswers(const void* policy);
// Drops the policy's entry (its destructor): its readers keep their counts.
void UnregisterFilterAnswers(const void* policy);
// The counts of `policy`'s readers; nullptr if it registered none (not
// sstfilter's policy).
std::shared_ptr<FilterAnswers> FilterAnswersOf(const void* policy);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_FILTER_ANSWERS_H_
