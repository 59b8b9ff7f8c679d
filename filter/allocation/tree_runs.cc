#include "filter/allocation/tree_runs.h"

namespace sstfilter {

int DeepestLevel(const TreeRuns& runs) {
  for (size_t level = runs.levels.size(); level-- > 1;) {
    if (runs.levels[level].keys > 0) return static_cast<int>(level);
  }
  return 0;
}

}  // namespace sstfilter
