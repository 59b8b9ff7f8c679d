// The rate of Gets reaching a DB's tables, from the rebuild loop's readings
// of their count (census_listener.h): what a rewrite's saving is paid back
// at (rebuild_gain.h). Pure arithmetic.
#ifndef SSTFILTER_TABLE_CENSUS_GET_RATE_H_
#define SSTFILTER_TABLE_CENSUS_GET_RATE_H_

#include <chrono>
#include <cstdint>
#include <vector>

namespace sstfilter {

// When a count was read, and the count.
struct GetReading {
  std::chrono::steady_clock::time_point at;
  uint64_t gets = 0;
};

// The readings of one DB instance, oldest first: those of the last
// kSpan are kept (and the one before them, so that the span
// reaches back that far).
class GetReadings {
 public:
  static constexpr std::chrono::seconds kSpan{60};
  // A rate is said over at least kLeastSpan, or sooner once kLeastGets
  // have been counted (over at least kLeastBusySpan): a short-lived
  // process whose Gets the cache answers (a benchmark's million, in
  // seconds) gets its rewrites within its life, and 10,000 Gets give a
  // rate within 1%.
  static constexpr std::chrono::seconds kLeastSpan{2};
  static constexpr uint64_t kLeastGets = 10000;
  static constexpr std::chrono::milliseconds kLeastBusySpan{250};

  // Adds a reading; returns the Gets per second since the oldest kept, 0
  // where the readings do not say one yet (or the count went back: the
  // statistics were reset).
  double Add(GetReading reading);

 private:
  std::vector<GetReading> readings_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_GET_RATE_H_
