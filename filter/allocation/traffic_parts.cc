#include "filter/allocation/traffic_parts.h"

#include <cmath>
#include <map>

namespace sstfilter {

std::vector<RunModel> SplitByTraffic(const RunModel& run,
                                     const std::vector<TableTraffic>& tables) {
  struct Band {
    double keys = 0, share = 0;
  };
  std::map<long, Band> bands;  // By the band of lookups per entry.
  double keys = 0;
  for (const TableTraffic& t : tables) {
    const auto n = static_cast<double>(t.range.keys);
    if (n <= 0 || t.share <= 0) continue;
    Band& band = bands[std::lround(
        std::floor(std::log(t.share / static_cast<double>(t.range.keys)) / std::log(kPartRatio)))];
    band.keys += n, band.share += t.share;
    keys += n;
  }
  if (keys <= 0) return {run};
  std::vector<RunModel> parts;
  for (const auto& [index, band] : bands) {
    const double part = band.keys / keys;
    RunModel m = run;
    m.keys = run.keys * part;
    m.fixed_keys = run.fixed_keys * part;
    m.fixed_bits = run.fixed_bits * part;
    m.reach = band.share * run.keys / keys;  // The band's lookups per entry, at the run's size.
    parts.push_back(std::move(m));
  }
  return parts;
}

}  // namespace sstfilter
