#include "table/census/census_handoff.h"

#include <utility>

namespace sstfilter {

namespace {

struct HandedOff {
  const void* db = nullptr;
  std::string column_family;
  std::shared_ptr<const TreeRuns> runs;
};

thread_local HandedOff handed_off;

}  // namespace

void HandOffTree(const void* db, const std::string& column_family,
                 std::shared_ptr<const TreeRuns> runs) {
  handed_off = HandedOff{db, column_family, std::move(runs)};
}

std::shared_ptr<const TreeRuns> TakeHandedOffTree(const void* db,
                                                  const std::string& column_family) {
  HandedOff taken = std::exchange(handed_off, HandedOff{});
  if (taken.column_family != column_family) return nullptr;
  if (taken.db != nullptr && taken.db != db) return nullptr;
  return std::move(taken.runs);
}

}  // namespace sstfilter
