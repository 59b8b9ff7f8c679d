// Output of sstfilter_db_bench --shapes: a Markdown table with a row per
// shape, measure point and policy, printed shape by shape as each is done,
// and JSON of every point.
#ifndef SSTFILTER_BENCH_DB_BENCH_SHAPE_REPORT_H_
#define SSTFILTER_BENCH_DB_BENCH_SHAPE_REPORT_H_

#include <string>
#include <vector>

#include "bench/db_bench/shape_run.h"

namespace sstfilter::db_bench {

// Each row's ratios are against the reference policy's row at the same
// shape and point: the first policy (the uniform one by default).
class ShapesTable {
 public:
  // REQUIRES: policies not empty; every row's policy is one of them.
  explicit ShapesTable(std::vector<std::string> policies);

  std::string Header() const;
  // The rows of one shape's results (every policy's points), point by
  // point in the shape's order, each point's policies in their order.
  std::string Rows(const std::vector<PointResult>& results) const;
  // What the columns mean.
  std::string Legend() const;

 private:
  std::string Row(const std::vector<std::string>& cells) const;
  std::vector<std::string> policies_;
  std::vector<size_t> widths_;
};

// Every point's figures, with the run's settings and the machine.
std::string ShapesJson(const std::vector<PointResult>& results, const ShapeConfig& config);

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_SHAPE_REPORT_H_
