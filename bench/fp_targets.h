// The FP report's check of sizing by an FP target (filter/fp_target.h):
// each of our encodings sized for a target by its own model
// (BitsPerKeyForFp: what fp_rate, sstfilter_params --fp and the per-level
// policy's per-table targets use), then measured on every key shape.
#ifndef SSTFILTER_BENCH_FP_TARGETS_H_
#define SSTFILTER_BENCH_FP_TARGETS_H_

#include <string>
#include <vector>

#include "bench/fp_measure.h"
#include "bench/key_shapes.h"

namespace sstfilter::bench {

struct FpTargetRow {
  KeyShape shape;
  size_t n = 0;
  double target = 0;      // The FP rate asked for.
  std::string impl;       // OurImplName of the encoding.
  double bits = 0;        // The setting the target gave.
  FpMeasurement m;
};

struct FpTargetSettings {
  std::vector<KeyShape> shapes;
  std::vector<size_t> ns;
  std::vector<double> targets;
  size_t target_fps = 400, min_queries = 100000, max_queries = 2000000, present_checks = 100000;
};

// Every (shape, n, target, encoding of ours), printing a table to stdout.
std::vector<FpTargetRow> MeasureFpTargets(const FpTargetSettings& s);

// Per encoding and target: measured / target over the cases, and the
// cases above the target by more than sampling error (z > 3).
std::string FpTargetSummary(const std::vector<FpTargetRow>& rows);

// fp_targets.csv's contents.
std::string FpTargetCsv(const std::vector<FpTargetRow>& rows);

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_FP_TARGETS_H_
