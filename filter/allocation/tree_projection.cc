#include "filter/allocation/tree_projection.h"

#include <cmath>

#include "filter/allocation/run_allocation.h"

namespace sstfilter {

namespace {

// The runs as the allocation sees them, each with its filter bits today
// times `scale` as its share of the budget.
std::vector<RunModel> Models(const std::vector<RunToday>& runs, double scale) {
  std::vector<RunModel> models;
  for (const RunToday& run : runs) {
    RunModel model = EncodingRunModel(run.encoding, run.keys, run.bits_per_key());
    model.uniform_bits = scale * run.bits_per_key();
    model.reach = run.reach;
    models.push_back(std::move(model));
  }
  return models;
}

double ReadsAtScale(const std::vector<RunToday>& runs, double scale) {
  return ReadsPerAbsentGet(runs, AllocateRunFpRates(Models(runs, scale)));
}

}  // namespace

std::vector<RunToday> RunsToday(const std::vector<TreeRun>& runs) {
  std::vector<RunToday> today;
  for (const TreeRun& r : runs) {
    if (r.keys() == 0) continue;
    today.push_back({static_cast<double>(r.keys()), 8.0 * static_cast<double>(r.filter_bytes()),
                     r.fp_rate(), r.reach, r.encoding()});
  }
  return today;
}

double ReadsPerAbsentGet(const std::vector<RunToday>& runs, const std::vector<double>& fp_rates) {
  double reads = 0;
  for (size_t i = 0; i < runs.size() && i < fp_rates.size(); ++i) {
    reads += runs[i].reach * fp_rates[i];
  }
  return reads;
}

TreeProjection ProjectOptimizeLevels(const std::vector<RunToday>& runs) {
  TreeProjection p;
  std::vector<double> today;
  for (const RunToday& run : runs) today.push_back(run.fp_rate);
  p.reads_today = ReadsPerAbsentGet(runs, today);
  p.reads_same_bytes = ReadsAtScale(runs, 1);
  // Reads fall as the budget grows: bisect log(scale) for reads_today.
  double lo = std::log(0.05), hi = std::log(4.0);
  if (ReadsAtScale(runs, std::exp(lo)) < p.reads_today ||
      ReadsAtScale(runs, std::exp(hi)) > p.reads_today) {
    return p;
  }
  for (int i = 0; i < 40; ++i) {
    const double mid = (lo + hi) / 2;
    (ReadsAtScale(runs, std::exp(mid)) > p.reads_today ? lo : hi) = mid;
  }
  p.bytes_for_same_reads = std::exp(hi);
  return p;
}

}  // namespace sstfilter
