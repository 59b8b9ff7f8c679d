// What sstfilter's filter readers answered, sampled: the census's source of
// the share of Gets that find their key where the DB keeps no statistics
// (observed_hit_share.h; filter/allocation/gets_from_answers.h turns the
// counts into Gets).
//
// A reader (table/rocksdb/bits_reader_adapter.h) samples one query in
// kSampleEvery on each thread and counts it: whether the filter answered
// "may match", and whether it answers so for a control key made from the
// query's key (QueryControlKey: a key no table holds): over queries whose key
// is not there the two answer "may match" equally often, whatever each
// filter's FP rate. The counts are kept per policy object, which the census
// finds from a DB's options (policy_registry.h), as RocksDB gives a reader
// no table, level or DB.
#ifndef SSTFILTER_TABLE_CENSUS_FILTER_ANSWERS_H_
#define SSTFILTER_TABLE_CENSUS_FILTER_ANSWERS_H_

#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string_view>

namespace sstfilter {

// Sampled counts, each sample counted for the queries it stands for,
// cumulative since the policy was made.
struct AnswerCounts {
  uint64_t queries = 0;
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
  // four atomic adds, about three plain queries. The share the samples tell
  // is as exact as the filters' false positives among them are few: over a
  // window of kAnsweredWindowGets Gets at about 0.2 false positives a Get,
  // within about 2% where a third of the found keys lie under filters
  // (filter/allocation/gets_from_answers.h).
  static constexpr uint32_t kSampleEvery = 32;
  static constexpr uint64_t kAnsweredWindowGets = 400000;
  // Appended to a sampled key to make its control key.
  static constexpr std::string_view kControlSalt = "\xffsstfilter-control";

  // Of this thread's next `n` queries, how many come before the one to
  // sample (n: none of them is); takes them, and the sampled one, off its
  // countdown. One query in kSampleEvery is sampled on average, the gaps
  // drawn at random (0 to 2 kSampleEvery - 2), so that a Get that queries a
  // fixed number of runs is not sampled at the same run every time.
  static size_t QueriesBeforeSample(size_t n) {
    struct Countdown {
      uint32_t left = 0, state = 0x9e3779b9;
    };
    // Initial-exec: one load off the thread pointer, where the default model
    // of a shared library calls __tls_get_addr on every query.
    __attribute__((tls_model("initial-exec"))) thread_local Countdown countdown;
    if (countdown.left >= n) {
      countdown.left -= static_cast<uint32_t>(n);
      return n;
    }
    const size_t before = countdown.left;
    countdown.state = countdown.state * 1664525u + 1013904223u;  // LCG step.
    countdown.left = (countdown.state >> 16) % (2 * SampleEvery() - 1);
    return before;
  }
  // Whether this thread's next query is one to sample.
  static bool SampleNext() { return QueriesBeforeSample(1) == 0; }

  // The sampling rate in force: kSampleEvery unless set. Tests and
  // benchmarks set another (1: every query) before they query; a thread
  // takes it up at its next sample.
  static uint32_t SampleEvery() { return sample_every_.load(std::memory_order_relaxed); }
  static void SetSampleEvery(uint32_t every) {
    sample_every_.store(every < 1 ? 1 : every, std::memory_order_relaxed);
  }

  // A sampled query's answer and its control key's, counted for the
  // SampleEvery() queries it stands for.
  void Add(bool positive, bool control_positive) {
    const uint64_t weight = SampleEvery();
    queries_.fetch_add(weight, std::memory_order_relaxed);
    if (positive) positives_.fetch_add(weight, std::memory_order_relaxed);
    if (control_positive) {
      control_positives_.fetch_add(weight, std::memory_order_relaxed);
      if (positive) control_positives_of_positives_.fetch_add(weight, std::memory_order_relaxed);
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
  static inline std::atomic<uint32_t> sample_every_{kSampleEvery};
};

// Calls `query` on `key`'s control key, one no table holds: the key then
// kControlSalt, built on the stack; a key longer than kMaxCopied is
// replaced by its 64-bit hash (distinct keys, distinct control keys but
// for hash collisions).
template <typename Query>
bool QueryControlKey(std::string_view key, Query&& query) {
  constexpr size_t kMaxCopied = 64;
  char control[kMaxCopied + FilterAnswers::kControlSalt.size()];
  size_t size = key.size();
  if (size <= kMaxCopied) {
    key.copy(control, size);
  } else {
    const uint64_t hash = std::hash<std::string_view>()(key);
    std::memcpy(control, &hash, sizeof(hash));
    size = sizeof(hash);
  }
  FilterAnswers::kControlSalt.copy(control + size, FilterAnswers::kControlSalt.size());
  return query(std::string_view(control, size + FilterAnswers::kControlSalt.size()));
}

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_FILTER_ANSWERS_H_
