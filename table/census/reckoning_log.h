// Which of the rebuild loop's reckonings (one a second, census_listener.h)
// a DB's LOG shows: one whose counts differ from the last shown, at once
// where it found more tables worth rewriting than that one, else at most
// once a kGap. A spread fit to each window of Gets' cache misses
// (spread_fit.h) moves with their noise, and the counts of tables off the
// plan (and a table near the payback's edge) with it: shown at every
// change, a DB that only reads would add a line a second.
#ifndef SSTFILTER_TABLE_CENSUS_RECKONING_LOG_H_
#define SSTFILTER_TABLE_CENSUS_RECKONING_LOG_H_

#include <chrono>
#include <cstddef>
#include <string>

namespace sstfilter {

class ReckoningLogGate {
 public:
  static constexpr std::chrono::seconds kGap{60};

  // Whether the reckoning at `now` whose counts read `counts`, which found
  // `worth` tables worth rewriting, is shown; if so, it is the last shown.
  bool Admit(const std::string& counts, size_t worth, std::chrono::steady_clock::time_point now);

 private:
  bool shown_any_ = false;
  std::string counts_;
  size_t worth_ = 0;
  std::chrono::steady_clock::time_point at_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_RECKONING_LOG_H_
