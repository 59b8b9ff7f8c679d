#include "table/census/born_share.h"

#include <algorithm>

namespace sstfilter {

namespace {

// The share by Gets; nullopt where the counts do not say one.
std::optional<double> ByGets(const GetsMoment& born, const GetsMoment& last,
                             const GetsMoment& now) {
  if (!born.gets || !last.gets || !now.gets) return std::nullopt;
  if (*now.gets <= *last.gets || *born.gets < *last.gets || *born.gets > *now.gets) {
    return std::nullopt;
  }
  return static_cast<double>(*now.gets - *born.gets) / static_cast<double>(*now.gets - *last.gets);
}

double ByTime(const GetsMoment& born, const GetsMoment& last, const GetsMoment& now) {
  const double interval = std::chrono::duration<double>(now.at - last.at).count();
  if (interval <= 0) return 1;
  return std::clamp(std::chrono::duration<double>(now.at - born.at).count() / interval, 0.0, 1.0);
}

}  // namespace

std::map<uint64_t, double> BornShares(const std::map<uint64_t, GetsMoment>& born,
                                      const GetsMoment& last, const GetsMoment& now) {
  std::map<uint64_t, double> shares;
  for (const auto& [number, when] : born) {
    shares[number] = ByGets(when, last, now).value_or(ByTime(when, last, now));
  }
  return shares;
}

}  // namespace sstfilter
