// A column family's tree (tree_runs.h) as text and back: the form in which
// the decision cases (tests/decisions/) state their trees and in which
// `sstfilter_sst --db DIR --tree_text` prints a DB's, so that a user's tree
// becomes a case. One line per item, `word field=value ...`, in any order
// but for L0's tables, which keep theirs:
//
//   targets leveled l0_tables=2 dynamic multiplier=10 base_entries=100000
//   targets l0_stays                             (automatic compactions off)
//   host deepest_unfiltered                      (its deepest level written without filters)
//   L0 keys=20000 tables=1 fixed_keys=20000 fixed_bits=200000 unfiltered_keys=0 reach=1
//   L3 keys=10000000 tables=100                 (each level's run; L0 lines: one per table)
//   last_flush keys=50000                        (the entries of the last flush seen)
//   blocks entries=4200 data_bytes=491520 data_blocks=120 index_bytes=4096 index_blocks=1
//   hit_share 0.3 carried                        (carried: the DB's last instance's)
//   misses gets=10000 filter=0.1 index=0.2 data=0.3 new_filter_bytes=0
//   traffic gets=500
//   traffic_table L2 file=12 smallest=k01 largest=k09 keys=1000 share=0.1 uniform=0.1 evidence=5
//
// Fields left out keep TreeRuns' defaults. Keys are C-escaped (a space as
// \040). `#` starts a comment line.
#ifndef SSTFILTER_FILTER_ALLOCATION_TREE_TEXT_H_
#define SSTFILTER_FILTER_ALLOCATION_TREE_TEXT_H_

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "filter/allocation/tree_runs.h"
#include "filter/allocation/tree_traffic.h"

namespace sstfilter {

// `runs` as lines of the form above (every field its reading gives back).
std::string TreeText(const TreeRuns& runs);

// Reads lines of the form above into a tree.
class TreeTextReader {
 public:
  // Adds one line. NotFound when its first word is not one of the tree's,
  // so that a reader of a larger form can take the line; InvalidArgument
  // naming the field for a bad line: a value that is not a number >= 0 (or
  // a share above 1), an unknown or repeated field, a line given twice
  // (each but L0's and traffic_table's is one a tree). Nothing is added
  // from a line that is refused.
  absl::Status Read(std::string_view line);

  // The tree read so far.
  TreeRuns Tree() const;

 private:
  // Read's line once checked against the lines given.
  absl::Status ReadLine(std::string_view line, const std::string& word, int level,
                        const std::vector<std::string>& words);

  TreeRuns runs_;                         // Its traffic aside:
  std::shared_ptr<TreeTraffic> traffic_;  // null until a traffic line.
  std::set<std::string> given_;           // The words of the lines one a tree.
};

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_TREE_TEXT_H_
