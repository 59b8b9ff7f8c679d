#include "tools/db_projection.h"

#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "filter/allocation/filters_by_run.h"
#include "tools/live_tables.h"

namespace sstfilter {

absl::StatusOr<TreeProjection> ProjectDbTree(const std::string& dir, const TableShare& share) {
  absl::StatusOr<std::vector<FamilyTables>> families =
      ReadLiveTables(dir, /*verify_checksums=*/true);
  if (!families.ok()) return families.status();
  for (FamilyTables& family : *families) {
    if (family.name != "default") continue;
    if (!family.unreadable.empty()) {
      return absl::DataLossError(absl::StrFormat("%s: %d live tables could not be read: %s", dir,
                                                 family.unreadable.size(),
                                                 absl::StrJoin(family.unreadable, "; ")));
    }
    const std::vector<RunToday> runs =
        RunsToday(share ? TablesAsRuns(std::move(family.read), share)
                        : GroupIntoRuns(std::move(family.read), family.bytewise));
    if (runs.empty()) {
      return absl::FailedPreconditionError(absl::StrFormat("%s: no table holds keys", dir));
    }
    return ProjectOptimizeLevels(runs);
  }
  return absl::FailedPreconditionError(absl::StrFormat("%s: no default column family", dir));
}

}  // namespace sstfilter
