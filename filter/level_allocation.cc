#include "filter/level_allocation.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "filter/encodings.h"
#include "filter/fp_target.h"
#include "filter/model_memo.h"

namespace sstfilter {

namespace {

// Below it a run's reach counts as this: a run no lookup reaches still has
// a filter, and its FP stays finite (kMaxRunFpRate caps it anyway).
constexpr double kMinReach = 1e-3;

// The search for mu (in ln mu) stops at this width.
constexpr double kMuPrecision = 1e-9;

// What a bit per key buys the run, c in bits(p) = a - ln(p) / c: measured
// over the decade 1% to 0.1%, where trees' filters live. ln(2)^2 (a
// standard Bloom filter's) if the model is flat there.
double FpSlope(const RunModel& run) {
  const double bits = run.bits_for_fp(0.001) - run.bits_for_fp(0.01);
  return bits > 0 ? std::log(10.0) / bits : std::log(2.0) * std::log(2.0);
}

// The runs' FP rates for one multiplier mu, and their memory.
struct Candidate {
  std::vector<double> fp_rates;
  double memory = 0;
};

Candidate At(const std::vector<RunModel>& runs, const std::vector<double>& slopes, double mu) {
  Candidate c;
  for (size_t i = 0; i < runs.size(); ++i) {
    const double fp =
        std::min(kMaxRunFpRate, mu * runs[i].keys / (slopes[i] * std::max(runs[i].reach, kMinReach)));
    c.fp_rates.push_back(fp);
    c.memory += runs[i].keys * runs[i].bits_for_fp(fp);
  }
  return c;
}

}  // namespace

std::vector<double> AllocateRunFpRates(const std::vector<RunModel>& runs) {
  if (runs.empty()) return {};
  std::vector<double> slopes;
  double budget = 0;
  for (const RunModel& run : runs) {
    slopes.push_back(FpSlope(run));
    budget += run.keys * run.uniform_bits;
  }
  // Memory falls as mu grows. Invariant: At(lo) is over the budget, At(hi)
  // within it; search ln(mu) until the memory is within 0.1% of it.
  double lo = std::log(1e-300), hi = std::log(1e6);
  Candidate best = At(runs, slopes, std::exp(hi));
  if (best.memory > budget) return best.fp_rates;  // Every run at kMaxRunFpRate.
  if (Candidate most = At(runs, slopes, std::exp(lo)); most.memory <= budget) {
    return most.fp_rates;  // Every run at the most accurate setting there is.
  }
  // Memory is a step function of mu (filters grow in whole bytes, a small
  // one in whole cache lines), so within 0.1% may never come: the search
  // also stops when mu is known to a part in 1e9.
  for (int i = 0; i < 200 && best.memory < 0.999 * budget && hi - lo > kMuPrecision; ++i) {
    const double mid = (lo + hi) / 2;
    Candidate c = At(runs, slopes, std::exp(mid));
    if (c.memory > budget) {
      lo = mid;
    } else {
      hi = mid;
      best = std::move(c);
    }
  }
  return best.fp_rates;
}

RunModel EncodingRunModel(EncodingId encoding, double keys, double bits_per_key) {
  const auto n = static_cast<size_t>(
      std::clamp(keys, 1.0, static_cast<double>(kNominalFilterKeys)));
  auto spent = [encoding, n](double setting) {
    return 8.0 * static_cast<double>(MemoFilterSize(encoding, n, setting)) / static_cast<double>(n);
  };
  RunModel model;
  model.keys = keys;
  model.uniform_bits = spent(bits_per_key);
  model.bits_for_fp = [encoding, n, spent](double fp_rate) {
    return spent(BitsPerKeyForFpModel(
        [&](double setting) { return MemoExpectedFpRate(encoding, n, setting); }, fp_rate));
  };
  return model;
}

}  // namespace sstfilter
