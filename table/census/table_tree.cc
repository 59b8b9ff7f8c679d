#include "table/census/table_tree.h"

#include "table/census/census_handoff.h"
#include "table/census/census_registry.h"

namespace sstfilter {

std::shared_ptr<const TreeRuns> TreeForTable(const void* db, const std::string& column_family) {
  std::shared_ptr<const TreeRuns> runs = TakeHandedOffTree(db, column_family);
  return runs != nullptr ? runs : LevelCensus::Instance().Find(db, column_family);
}

}  // namespace sstfilter
