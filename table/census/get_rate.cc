#include "table/census/get_rate.h"

namespace sstfilter {

double GetReadings::Add(GetReading reading) {
  readings_.push_back(reading);
  while (readings_.size() > 2 && reading.at - readings_[1].at >= kSpan) {
    readings_.erase(readings_.begin());
  }
  const GetReading& first = readings_.front();
  if (reading.gets < first.gets) return 0;
  const auto span = reading.at - first.at;
  const uint64_t gets = reading.gets - first.gets;
  const bool enough = span >= kLeastSpan || (gets >= kLeastGets && span >= kLeastBusySpan);
  if (!enough) return 0;
  return static_cast<double>(gets) / std::chrono::duration<double>(span).count();
}

}  // namespace sstfilter
