// A table's plan in words: the line the DB's LOG gets for each table a
// cache_aware policy sizes, and the decision cases print (tests/decisions/).
#ifndef SSTFILTER_FILTER_PLAN_PLAN_TEXT_H_
#define SSTFILTER_FILTER_PLAN_PLAN_TEXT_H_

#include <string>

#include "filter/plan/table_choice.h"

namespace sstfilter {

// "cache_aware: a table at L3, block cache 8.00 MiB: filters of ... MiB
// (budget ...), ... device reads per Get by the model, 50.0% of Gets
// finding their key (assumed), spread uniformly over the keys".
std::string DescribePlan(const PlanUsed& used);

// "each table's 70% on 29.7% of its keys (fit to ...)": a plan's hot width
// (spread_fit.h) in words; empty where it is kUnsharpened.
std::string SpreadFitText(double hot_width);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_PLAN_PLAN_TEXT_H_
