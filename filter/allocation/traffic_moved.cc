#include "filter/allocation/traffic_moved.h"

#include <cmath>

namespace sstfilter {

bool TrafficMoved(const std::vector<WindowCounts>& tables) {
  double before = 0, window = 0;
  for (const WindowCounts& t : tables) before += t.before, window += t.window;
  if (before < kMovedLeastSamples || window < kMovedLeastSamples) return false;
  const double total = before + window;
  // Each table's cell, or the pool of those the window expects few of.
  std::vector<WindowCounts> cells;
  WindowCounts pool;
  for (const WindowCounts& t : tables) {
    const double expected = window * (t.before + t.window) / total;
    if (expected <= 0) continue;
    if (expected < kMovedLeastExpected) {
      pool.before += t.before, pool.window += t.window;
    } else {
      cells.push_back(t);
    }
  }
  if (pool.before + pool.window > 0) cells.push_back(pool);
  if (cells.size() < 2) return false;
  double chi2 = 0;
  for (const WindowCounts& c : cells) {
    const double col = c.before + c.window;
    const double e_before = before * col / total, e_window = window * col / total;
    chi2 += (c.before - e_before) * (c.before - e_before) / e_before;
    chi2 += (c.window - e_window) * (c.window - e_window) / e_window;
  }
  const double df = static_cast<double>(cells.size() - 1);
  const double spread = 2 / (9 * df);
  return chi2 > df * std::pow(1 - spread + kMovedDeviate * std::sqrt(spread), 3);
}

}  // namespace sstfilter
