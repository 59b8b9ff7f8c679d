// The FP report's measurements and the views drawn from them: plots of FP
// against n, against configured bits/key and against bits/key actually
// spent, and the spent-bits summary.
//
// Configured bits/key is what a user asks for; what a filter spends is its
// size, filter bytes * 8 / n. They differ by rounding for Bloom filters and
// by design for the memory-efficient ones (our compact encoding, RocksDB's
// Ribbon), which take bits_per_key as Bloom-equivalent accuracy: the spent
// axis puts every kind at its real memory.
#ifndef SSTFILTER_BENCH_FP_REPORT_VIEWS_H_
#define SSTFILTER_BENCH_FP_REPORT_VIEWS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "bench/filter_impls.h"
#include "bench/fp_measure.h"
#include "bench/fp_plot.h"
#include "bench/key_shapes.h"

namespace sstfilter::bench {

// One measured filter: shape, n, configured bits/key and implementation.
struct FpRow {
  KeyShape shape;
  size_t n;
  double bits;  // Configured.
  std::string impl;
  FpMeasurement m;
};

enum class FpAxis {
  kKeys,            // x = n, rows at one configured bits/key.
  kConfiguredBits,  // x = configured bits/key, rows at one n.
  kSpentBits,       // x = m.spent_bits_per_key(), rows at one n.
};

// One panel per shape, one series per implementation (in impls order; one
// without rows is left out), points in ascending x. Rows are those at
// `bits` (kKeys) or at `n` (the bits axes).
FpPlot MakeFpPlot(const std::vector<FpRow>& rows, const std::vector<KeyShape>& shapes,
                  const std::vector<FilterImpl>& impls, FpAxis axis, double bits, size_t n);

// Text for stdout: bits spent per key at `bits` configured, one line per n
// of ns, one column per implementation (min..max when the shapes differ);
// then, at the largest n, each implementation's FP rate (mean over shapes)
// and its spent bits over the information-theoretic least, log2(1/FP).
std::string SpentBitsSummary(const std::vector<FpRow>& rows,
                             const std::vector<FilterImpl>& impls, double bits,
                             const std::vector<size_t>& ns);

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_FP_REPORT_VIEWS_H_
