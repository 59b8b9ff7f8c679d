// A table's share of its column family's Gets from its decayed sampled
// counts (the census reads them: table/census/read_samples.h): samples over
// exposure, shrunk toward a prior fitted to the table's level, so that a
// table that has seen few Gets is not taken as hot or cold on noise.
#ifndef SSTFILTER_FILTER_ALLOCATION_SHARE_OF_GETS_H_
#define SSTFILTER_FILTER_ALLOCATION_SHARE_OF_GETS_H_

#include <cstddef>
#include <vector>

namespace sstfilter {

// One table's decayed counts, in sampled Gets.
struct TableSamples {
  double samples = 0;   // Its own.
  double exposure = 0;  // Its column family's while it lived.
};

// What a group of tables' shares are shrunk toward (a Gamma prior on each
// table's share): `ratio` times its uniform share, as strongly as if it had
// already seen `samples` sampled Gets there.
struct SharePrior {
  double ratio = 1;
  double samples = 2;
};

// The prior of a group of tables (one level's) fitted to them (method of
// moments of a Gamma-Poisson mixture): the ratio is their samples over
// what uniform shares would have drawn; the strength is what makes the
// prior's spread the spread of their samples beyond sampling noise (less
// two of that noise's standard deviations, so that a chance excess is not
// taken for a spread). Tables that differ no more than sampling does are
// held to one share (a noisy
// spread of bits within a level reads more than even bits); tables that
// differ far more keep what they saw. The default prior below
// kMinPriorTables tables with exposure. `uniform` gives each table's
// uniform share (same order; > 0).
inline constexpr size_t kMinPriorTables = 4;
SharePrior FitSharePrior(const std::vector<TableSamples>& tables,
                         const std::vector<double>& uniform);

// A table's share of its column family's Gets: samples over exposure,
// shrunk toward `prior` (prior.ratio x uniform_share); that itself when
// exposure is 0; at most 1 (a Get consults a table once).
// REQUIRES: uniform_share > 0.
double ShareOfGets(const TableSamples& t, double uniform_share, const SharePrior& prior = {});

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_SHARE_OF_GETS_H_
