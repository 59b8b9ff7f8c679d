#include "filter/allocation/run_allocation.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>

#include "filter/allocation/encoding_model_memo.h"
#include "filter/allocation/fp_curve.h"
#include "filter/encodings.h"
#include "filter/fp_target.h"

namespace sstfilter {

namespace {

// The searches for mu and for a repaying factor (in ln) stop at these
// widths: the open allocation's mu to 0.01% (each run's FP moves as
// much, far inside the models' error; small filters grow in whole cache
// lines, so the memory may never come within 0.1% of the budget and the
// search runs to this width), a factor to a part in 1e9.
constexpr double kLnMuPrecision = 1e-4;
constexpr double kMuPrecision = 1e-9;

// What a bit per key buys the run, c in bits(p) = a - ln(p) / c: measured
// over the decade 1% to 0.1%, where trees' filters live. ln(2)^2 (a
// standard Bloom filter's) if the model is flat there.
double FpSlope(const RunModel& run) {
  const double bits = run.bits_for_fp(0.001) - run.bits_for_fp(0.01);
  return bits > 0 ? std::log(10.0) / bits : std::log(2.0) * std::log(2.0);
}

// Each run's FP rate for the multiplier mu.
std::vector<double> FpRatesAt(const std::vector<RunModel>& runs, const std::vector<double>& slopes,
                              double mu) {
  std::vector<double> fp;
  for (size_t i = 0; i < runs.size(); ++i) {
    fp.push_back(RunFpAt(mu, runs[i].keys, slopes[i], runs[i].reach));
  }
  return fp;
}

// Bits the runs spend at FP rates `fp`.
double MemoryAt(const std::vector<RunModel>& runs, const std::vector<double>& fp) {
  double memory = 0;
  for (size_t i = 0; i < runs.size(); ++i) memory += runs[i].keys * runs[i].bits_for_fp(fp[i]);
  return memory;
}

// The ln mu in [lo, hi] whose memory (falling as mu grows) comes closest
// to `budget` from below: lo if even lo's is within it, hi if even hi's is
// over it. Memory is a step function of mu (filters grow in whole bytes, a
// small one in whole cache lines), so within 0.1% may never come: the
// search also stops when ln mu is known to kLnMuPrecision. Each point after
// `guess` is Newton's step toward the middle of that 0.1% (`slope`: the
// memory's derivative in ln mu, < 0) where it falls inside the bracket
// and the bracket halved at least every other point, else the midpoint:
// memory is close to linear in ln mu, so a few points find it where
// bisection from the wide bracket takes twenty.
template <typename Memory, typename Slope>
double SolveLnMu(Memory memory, Slope slope, double budget, double lo, double hi, double guess) {
  double at_hi = memory(hi);
  if (at_hi > budget) return hi;
  if (memory(lo) <= budget) return lo;
  const double aim = 0.9995 * budget;
  double x = guess, width = hi - lo;
  for (int i = 0; i < 200 && at_hi < 0.999 * budget && hi - lo > kLnMuPrecision; ++i) {
    if (!(x > lo && x < hi) || (i % 2 == 1 && hi - lo > width / 2)) x = (lo + hi) / 2;
    if (i % 2 == 1) width = hi - lo;
    const double m = memory(x);
    if (m > budget) {
      lo = x;
    } else {
      hi = x, at_hi = m;
    }
    const double s = slope(x);
    x = s < 0 ? x + (aim - m) / s : (lo + hi) / 2;
  }
  return hi;
}

std::vector<double> Slopes(const std::vector<RunModel>& runs) {
  std::vector<double> slopes;
  for (const RunModel& run : runs) slopes.push_back(FpSlope(run));
  return slopes;
}

// The uniform setting's memory over the whole tree, at most max_bits.
double Budget(const std::vector<RunModel>& runs, double max_bits) {
  double budget = 0;
  for (const RunModel& run : runs) budget += run.keys * run.uniform_bits;
  return std::min(budget, max_bits);
}

// The open loop's ln mu: every run free, the whole budget. With bits(p) =
// a - ln(p) / c, memory falls by keys / c per unit of ln mu in each run
// below kMaxRunFpRate; the search starts where the largest run's FP is 1%.
double OpenLnMu(const std::vector<RunModel>& runs, const std::vector<double>& slopes,
                double max_bits) {
  auto memory = [&](double ln_mu) {
    return MemoryAt(runs, FpRatesAt(runs, slopes, std::exp(ln_mu)));
  };
  auto slope = [&](double ln_mu) {
    const std::vector<double> fp = FpRatesAt(runs, slopes, std::exp(ln_mu));
    double s = 0;
    for (size_t i = 0; i < runs.size(); ++i) {
      if (fp[i] < kMaxRunFpRate) s -= runs[i].keys / slopes[i];
    }
    return s;
  };
  size_t largest = 0;
  for (size_t i = 1; i < runs.size(); ++i) {
    if (runs[i].keys > runs[largest].keys) largest = i;
  }
  const RunModel& big = runs[largest];
  const double guess =
      std::log(0.01 * slopes[largest] * std::max(big.reach, kMinReach) / big.keys);
  return SolveLnMu(memory, slope, Budget(runs, max_bits), std::log(1e-300), std::log(1e6), guess);
}

// Runs that repay a debt together: the bits their fixed parts hold over
// their share at the open allocation's FP rates, and their free keys.
struct RepayGroup {
  std::vector<size_t> members;
  double debt = 0, free_keys = 0;

  void Add(const RunModel& run, double fp, size_t index) {
    members.push_back(index);
    debt += run.fixed_bits - run.fixed_keys * run.bits_for_fp(fp);
    free_keys += std::max(run.keys - run.fixed_keys, 0.0);
  }
};

// The one factor, within kMaxRepayFactor, that moves the members' FP
// rates so their free parts spend `debt` fewer bits than at `fp`.
double RepayFactor(const std::vector<RunModel>& runs, const std::vector<size_t>& members,
                   double debt, const std::vector<double>& fp) {
  // A zero debt keeps the open allocation itself, not some point of the
  // plateau of equal bits around it (filters grow in whole bytes).
  if (debt == 0) return 1;
  // The bits the free parts spend at factor e^ln_f, over what they may.
  auto excess = [&](double ln_f) {
    double bits = debt;
    for (size_t i : members) {
      const double n = std::max(runs[i].keys - runs[i].fixed_keys, 0.0);
      if (n <= 0) continue;
      const double moved = std::min(fp[i] * std::exp(ln_f), kMaxRunFpRate);
      bits += n * (runs[i].bits_for_fp(moved) - runs[i].bits_for_fp(fp[i]));
    }
    return bits;
  };
  // The bits fall as f grows: bisect ln f.
  double lo = -std::log(kMaxRepayFactor), hi = std::log(kMaxRepayFactor);
  if (excess(lo) <= 0) {
    hi = lo;
  } else if (excess(hi) < 0) {
    for (int step = 0; step < 60 && hi - lo > kMuPrecision; ++step) {
      const double mid = (lo + hi) / 2;
      (excess(mid) > 0 ? lo : hi) = mid;
    }
  }
  return std::exp(hi);
}

}  // namespace

std::vector<double> AllocateRunFpRates(const std::vector<RunModel>& runs, double max_bits) {
  if (runs.empty()) return {};
  const std::vector<double> slopes = Slopes(runs);
  return FpRatesAt(runs, slopes, std::exp(OpenLnMu(runs, slopes, max_bits)));
}

RunAllocation AllocateFreeRuns(const std::vector<RunModel>& runs, double max_bits) {
  RunAllocation allocation;
  if (runs.empty()) return allocation;
  allocation.slope = Slopes(runs);
  allocation.mu = std::exp(OpenLnMu(runs, allocation.slope, max_bits));
  const std::vector<double> open = FpRatesAt(runs, allocation.slope, allocation.mu);
  allocation.factor.assign(runs.size(), 1.0);
  std::map<int, RepayGroup> levels;  // By depth.
  for (size_t i = 0; i < runs.size(); ++i) {
    if (runs[i].group >= 0) levels[runs[i].group].Add(runs[i], open[i], i);
  }
  for (auto it = levels.begin(); it != levels.end(); ++it) {
    double debt = 0;  // Not its own: that leaves with the tables that hold it.
    for (auto deeper = std::next(it); deeper != levels.end(); ++deeper) {
      if (deeper->second.free_keys <= 0) debt += deeper->second.debt;
    }
    const double factor = RepayFactor(runs, it->second.members, debt, open);
    for (size_t i : it->second.members) allocation.factor[i] = factor;
  }
  for (size_t i = 0; i < runs.size(); ++i) {
    allocation.fp.push_back(RunFpAt(allocation.mu, runs[i].keys, allocation.slope[i],
                                    runs[i].reach, allocation.factor[i]));
  }
  return allocation;
}

std::vector<double> AllocateFreeRunFpRates(const std::vector<RunModel>& runs, double max_bits) {
  return AllocateFreeRuns(runs, max_bits).fp;
}

std::function<double(double fp_rate)> ExactBitsForFp(EncodingId encoding, size_t filter_keys) {
  return [encoding, n = filter_keys](double fp_rate) {
    return MemoSpentBits(encoding, n, MemoBitsPerKeyForFp(encoding, n, fp_rate));
  };
}

RunModel EncodingRunModel(EncodingId encoding, double keys, double bits_per_key,
                          double filter_keys, int curve_nodes) {
  const auto n = static_cast<size_t>(std::clamp(filter_keys > 0 ? filter_keys : keys, 1.0,
                                                static_cast<double>(kNominalFilterKeys)));
  RunModel model;
  model.keys = keys;
  // A sampled model is its curve's size class's throughout. A run without
  // filters spends nothing (no builder is made at 0 bits per key); one that
  // spends more than a setting can ask (a few keys' filter: whole cache
  // lines) is modelled at the largest setting.
  model.uniform_bits = bits_per_key > 0
                           ? MemoSpentBits(encoding, curve_nodes > 0 ? BitsCurveKeys(n) : n,
                                           std::min(bits_per_key, kMaxBitsPerKey))
                           : 0;
  model.bits_for_fp = curve_nodes > 0 ? SampledBitsForFp(encoding, n, curve_nodes)
                                      : ExactBitsForFp(encoding, n);
  return model;
}

}  // namespace sstfilter
