// The Gets behind a tree's filter answers: how many reached the tables and
// how many of those found their key, from counts of the queries the
// filters answered, those answered "may match", and those a control key
// (one no table holds) was answered "may match" for on the same traffic
// (table/census/filter_answers.h samples them). The census's share of Gets
// that find their key where the DB keeps no statistics.
//
// Over the queries whose key is not there, the filters answer "may match"
// as often as for the control keys, whatever each filter's FP rate: the
// positives beyond the control keys' are Gets that found their key in a
// run with filters (less the control keys' false positives on those). Found
// keys are taken to lie in each run in proportion to its
// entries, so those found where no filter answers (a level planned
// unfiltered, optimize_filters_for_hits) are the rest of them in proportion
// (when the deepest level is unfiltered, about nine found keys are inferred
// for each one seen, and a workload whose found keys lie mostly in the upper
// levels is overcounted). Each found Get queried the filtered runs above its
// key's as far as they reach, and that run if filtered; every other Get
// queried every filtered run as far as it reaches. So the queries left once
// the finding Gets' are taken out, over the filtered runs' summed reach,
// are the Gets that found nothing.
#ifndef SSTFILTER_FILTER_ALLOCATION_GETS_FROM_ANSWERS_H_
#define SSTFILTER_FILTER_ALLOCATION_GETS_FROM_ANSWERS_H_

#include "filter/allocation/tree_runs.h"

namespace sstfilter {

// Filter answers over some interval (sampled counts, as counts).
struct AnswerTally {
  double queries = 0;
  double positives = 0;
  // Those whose control key was answered "may match", and of them those
  // answered so themselves.
  double control_positives = 0;
  double control_positives_of_positives = 0;
};

// The Gets that made them: reached the tables, and found their key there.
struct GetsEstimate {
  double reached = 0;
  double found = 0;
};

// The Gets behind `tally` on the tree `runs` (RunCensus::unfiltered_keys
// of each run unfiltered). A tree with no runs is
// taken as one filtered run; one with no filtered run tells nothing (0).
GetsEstimate GetsFromAnswers(const TreeRuns& runs, const AnswerTally& tally);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_GETS_FROM_ANSWERS_H_
