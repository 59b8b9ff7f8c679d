#include "table/census/reckoning_log.h"

namespace sstfilter {

bool ReckoningLogGate::Admit(const std::string& counts, size_t worth,
                             std::chrono::steady_clock::time_point now) {
  if (shown_any_ && counts == counts_) return false;
  if (shown_any_ && worth <= worth_ && now - at_ < kGap) return false;
  shown_any_ = true;
  counts_ = counts, worth_ = worth, at_ = now;
  return true;
}

}  // namespace sstfilter
