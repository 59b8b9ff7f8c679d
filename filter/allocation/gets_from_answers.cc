#include "filter/allocation/gets_from_answers.h"

#include <algorithm>
#include <vector>

namespace sstfilter {

namespace {

// Each run in the order a Get queries them (L0's tables, then the levels):
// its entries, reach, and the share of its entries under a filter.
struct QueriedRun {
  double keys;
  double reach;
  double filtered;
};

std::vector<QueriedRun> RunsInOrder(const TreeRuns& runs) {
  std::vector<QueriedRun> order;
  const auto add = [&](const RunCensus& run) {
    if (run.keys == 0) return;
    // The share of its known tables with no filter: those being written
    // are taken as the known ones are.
    const double known = static_cast<double>(run.fixed_keys > 0 ? run.fixed_keys : run.keys);
    const double unfiltered = std::min(static_cast<double>(run.unfiltered_keys), known);
    order.push_back({static_cast<double>(run.keys), run.reach, 1 - unfiltered / known});
  };
  for (const RunCensus& run : runs.l0_tables) add(run);
  for (size_t level = 1; level < runs.levels.size(); ++level) add(runs.levels[level]);
  return order;
}

// Per Get: the queries of one that finds nothing, the mean queries of one
// that finds its key, and the chance that it finds it in a filtered run.
struct PerGet {
  double absent_queries = 1, found_queries = 1, found_filtered = 1;
};

PerGet PerGetOf(const std::vector<QueriedRun>& order) {
  double keys = 0;
  for (const QueriedRun& run : order) keys += run.keys;
  if (keys <= 0) return {};
  PerGet per_get{0, 0, 0};
  for (const QueriedRun& run : order) {
    const double share = run.keys / keys;
    per_get.found_queries += share * (per_get.absent_queries + run.filtered);
    per_get.found_filtered += share * run.filtered;
    per_get.absent_queries += run.reach * run.filtered;
  }
  return per_get;
}

}  // namespace

GetsEstimate GetsFromAnswers(const TreeRuns& runs, const AnswerTally& tally) {
  const PerGet per_get = PerGetOf(RunsInOrder(runs));
  if (tally.queries <= 0 || per_get.absent_queries <= 0 || per_get.found_filtered <= 0) {
    return {};  // No query, or no filter to answer one.
  }
  // Over the queries of keys not there, a filter answers "may match" as
  // often as for their control keys; over those of keys found, always, and
  // for their control keys at the FP rate of the filters holding them,
  // taken as the control keys' rate over the queries answered so.
  const double fp_found =
      tally.positives > 0 ? std::min(tally.control_positives_of_positives / tally.positives, 0.5)
                          : 0;
  const double found_filtered =
      std::max((tally.positives - tally.control_positives) / (1 - fp_found), 0.0);
  const double found =
      std::min(found_filtered / per_get.found_filtered, tally.queries / per_get.found_queries);
  const double absent =
      std::max(tally.queries - found * per_get.found_queries, 0.0) / per_get.absent_queries;
  return {found + absent, found};
}

}  // namespace sstfilter
