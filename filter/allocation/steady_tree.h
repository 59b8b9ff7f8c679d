// The runs a table written into a leveled tree will mostly live beside:
// the levels above it as leveled compaction keeps them, not as a burst or a
// fill has swollen them for the moment.
//
// A table is sized once, for the tree of its job's start
// (table/census/census_handoff.h). While writes outpace compaction, L0 holds
// more tables than its trigger and the levels above the bottom more than
// their targets; a table written into a deep level then would get the share
// of a tree whose upper runs are many and large, and keep it after they
// shrink back (its bits, meant for runs that no longer exist, are never
// spent). So for such a table the levels above its own count at most what
// compaction keeps them to while writes go on: L0 its newest tables up to
// half its compaction trigger (it fills to the trigger, and a compaction
// empties it), each level its target. What they hold beyond that is heading
// down: it counts, as entries still to be written, at the next level, and in
// the end at the table's own.
//
// What this assumes: writes go on. A tree that settles (writes stop, L0
// and the upper levels drain into the bottom) keeps the bottom's tables
// sized for upper runs it no longer has, and holds a few percent under
// its budget until they are rewritten; a burst with compactions held off
// swells L0 past the trigger, and its flushes spend over it.
//
// The table's own level and those below are left as they are: their
// tables are the ones the budget is held on. Universal and FIFO trees, and
// trees whose automatic compactions are off, have no level targets and are
// left as they are.
#ifndef SSTFILTER_FILTER_ALLOCATION_STEADY_TREE_H_
#define SSTFILTER_FILTER_ALLOCATION_STEADY_TREE_H_

#include "filter/allocation/tree_runs.h"  // TreeRuns, LevelTargets

namespace sstfilter {

// `runs` with L0 and the levels above `level` (the level a table is written
// into; 0: a flush, which changes nothing) held to runs.targets.
TreeRuns SteadyTree(const TreeRuns& runs, int level);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_STEADY_TREE_H_
