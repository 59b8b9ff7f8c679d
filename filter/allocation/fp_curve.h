// A run's bits-for-FP model (RunModel::bits_for_fp) sampled on a grid and
// shared: a cache plan's budget search (filter/plan/cache_budget.h) asks each run's
// model for thousands of FP rates, each exact answer is a search over the
// encoding's setting (about 17 evaluations of its FP model), and the plans
// of a growing tree ask again for runs of nearly the same filter sizes.
#ifndef SSTFILTER_FILTER_ALLOCATION_FP_CURVE_H_
#define SSTFILTER_FILTER_ALLOCATION_FP_CURVE_H_

#include <cstddef>
#include <functional>

#include "filter/encoding_id.h"

namespace sstfilter {

// Nodes 1 / nodes-per-unit apart in ln p, from p = 1 (sized as the FP
// just below it: no filter is sized for 1) down to kBitsCurveLeast. A
// plan's budget search is content with kPlanCurveNodes; a table's FP
// target takes kTableCurveNodes: its builder spends what the exact search
// gives, and a coarser curve (linear between nodes of a convex, stepped
// function) let a tree's filters drift over its budget.
inline constexpr int kPlanCurveNodes = 4;
inline constexpr int kTableCurveNodes = 16;
inline constexpr double kBitsCurveLeast = 1e-30;

// Filter sizes (keys) of one class share a curve: the class of n is
// 2^(k / kBitsCurveClassesPerOctave) (rounded to whole keys) for the k
// nearest kBitsCurveClassesPerOctave * log2(n), so n and its class are
// within a 16th of an octave (4.4%) and half a key; below
// kBitsCurveExactKeys every size is a class of its own.
inline constexpr double kBitsCurveClassesPerOctave = 8;
inline constexpr size_t kBitsCurveExactKeys = 64;
size_t BitsCurveKeys(size_t filter_keys);

// The bits per key `encoding` spends on a filter of BitsCurveKeys(filter_keys)
// entries at the setting that meets FP rate p by its model
// (EncodingRunModel's bits_for_fp for that size): exact at the nodes
// p = e^(-i / nodes_per_unit), each computed when first needed, linear in
// ln p between them, exact itself below kBitsCurveLeast and above 1. Bits
// at the nodes fall as p grows, so the curve does too. Thread-safe: one
// process-wide curve per encoding, class and grain (a bounded number kept).
// REQUIRES: nodes_per_unit > 0.
std::function<double(double fp_rate)> SampledBitsForFp(EncodingId encoding, size_t filter_keys,
                                                       int nodes_per_unit);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_FP_CURVE_H_
