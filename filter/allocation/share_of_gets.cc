#include "filter/allocation/share_of_gets.h"

#include <algorithm>
#include <cmath>

namespace sstfilter {

namespace {

// The strongest prior: tables that differ by sampling noise alone.
constexpr double kMaxPriorSamples = 1e6;
// How many of its standard deviations under sampling noise alone the
// tables' excess spread must pass before any of it is taken as real: a
// level of many tables, each with a few samples, shows a spread beyond
// Poisson noise in half its draws, and a weak prior would let that noise
// move the plan.
constexpr double kNoiseSds = 2;

}  // namespace

SharePrior FitSharePrior(const std::vector<TableSamples>& tables,
                         const std::vector<double>& uniform) {
  double drawn = 0, expected = 0, expected_sq = 0;
  size_t seen = 0;
  for (size_t i = 0; i < tables.size(); ++i) {
    const double w = tables[i].exposure * uniform[i];
    if (w <= 0) continue;
    drawn += tables[i].samples, expected += w, expected_sq += w * w, ++seen;
  }
  SharePrior prior;
  if (seen < kMinPriorTables || drawn <= 0) return prior;
  prior.ratio = drawn / expected;
  // Var(s_i) = m w_i + (m w_i)^2 / alpha for s_i ~ Poisson(w_i g_i),
  // g_i ~ Gamma(alpha) of mean m. Under noise alone (no alpha) each term of
  // the excess has mean 0 and variance 2 (m w_i)^2.
  double excess = 0;
  for (size_t i = 0; i < tables.size(); ++i) {
    const double w = tables[i].exposure * uniform[i];
    if (w <= 0) continue;
    const double d = tables[i].samples - prior.ratio * w;
    excess += d * d - tables[i].samples;
  }
  const double scale = prior.ratio * prior.ratio * expected_sq;
  const double inverse = (excess - kNoiseSds * std::sqrt(2 * scale)) / scale;
  prior.samples = inverse > 1 / kMaxPriorSamples ? 1 / inverse : kMaxPriorSamples;
  return prior;
}

double ShareOfGets(const TableSamples& t, double uniform_share, const SharePrior& prior) {
  const double mean = prior.ratio * uniform_share;
  return std::min(1.0, (t.samples + prior.samples) / (t.exposure + prior.samples / mean));
}

}  // namespace sstfilter
