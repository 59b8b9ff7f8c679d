// How much of the interval between two readings of a DB's sampled reads
// (read_samples.h) a table born in it lived through: the share of the
// interval's Gets that came after its birth. Pure arithmetic.
#ifndef SSTFILTER_TABLE_CENSUS_BORN_SHARE_H_
#define SSTFILTER_TABLE_CENSUS_BORN_SHARE_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>

namespace sstfilter {

// A point in a DB instance's life: when, and the Gets that had reached its
// tables by then (census_listener.h's gets_reached; nullopt where nothing
// counts them: no statistics and no filter answers).
struct GetsMoment {
  std::chrono::steady_clock::time_point at;
  std::optional<uint64_t> gets;
};

// For each table born between the readings `last` and `now` (by file
// number, with its birth), the share of the interval it lived through:
// of the interval's Gets, those counted after its birth. A table born
// after the interval's Gets lived through none of them (its sampled reads
// hold none; exposure credited for them would take it for a cold table).
// By time instead where the counts do not say (not counted, none in the
// interval, or counted back: the statistics were reset; a reset the count
// climbed back over by the birth goes unseen). The counts are the DB's
// (its statistics') or its default column family's (its filters'
// answers), not each column family's: another column family's tables are
// weighed by them as if its Gets came as the DB's did.
std::map<uint64_t, double> BornShares(const std::map<uint64_t, GetsMoment>& born,
                                      const GetsMoment& last, const GetsMoment& now);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_BORN_SHARE_H_
