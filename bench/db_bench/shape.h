// The tree shapes of sstfilter_db_bench --shapes: named histories a RocksDB
// DB goes through (fills, bursts of overwrites, compactions off and on, a
// reopen with its last memtable only in the WAL), each reaching one or more
// measure points, where each policy's filters are measured on its own tree
// as it then is (shape_run.h). They are the trees a per-level policy has to
// follow as they move (docs/rocksdb.md#a-tree-that-moves): young and
// settled, leveled with and without dynamic level bytes, universal, FIFO,
// bursts into L0, a recovery flush, growth, a change of shape.
#ifndef SSTFILTER_BENCH_DB_BENCH_SHAPE_H_
#define SSTFILTER_BENCH_DB_BENCH_SHAPE_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "bench/db_bench/key_draw.h"

namespace sstfilter::db_bench {

// One step of a history. Key numbers are those of --num (workload.h's
// MakeKey); `num` below is --num.
struct ShapeStep {
  enum class Kind {
    // Writes each key numbered v < num with v % every == offset once, in a
    // random order, without waiting for the flushes and compactions the
    // writes trigger (a writer does not wait for them).
    kFill,
    // Writes `memtables` memtables' worth of keys drawn at random (with
    // repeats) from those numbered in [from * num, to * num): overwrites.
    kOverwrite,
    kFlush,           // The memtable into a table; waits for it.
    kWait,            // Until no flush or compaction is due or running.
    kCompactionsOff,  // Automatic compactions off; running ones finish.
    kCompactionsOn,
    // Closes the DB without a flush (its last memtable lives only in the
    // WAL) and opens it again: RocksDB's recovery flush writes that
    // memtable into an L0 table inside DB::Open.
    kReopen,
    // Absent-key Gets (ShapeConfig::round_reads) drawn by the shape's
    // traffic: lookups the DB sees (and samples) between measure points.
    kRead,
    // The traffic's hot ranges move (a new hot set).
    kShift,
    // A measure point called `label`; the keys written so far are those
    // numbered v < num with v % every == 0. Its Gets are drawn by the
    // shape's traffic.
    kMeasure,
  };
  Kind kind = Kind::kFlush;
  int every = 1;
  int offset = 0;
  double from = 0, to = 1;
  double memtables = 0;
  std::string_view label;
};

struct TreeShape {
  std::string_view name;
  std::string_view history;  // What happens to the DB, in a phrase.
  std::string_view compaction_style;  // "level", "universal" or "fifo".
  bool dynamic_level_bytes = true;    // Leveled only.
  std::vector<ShapeStep> steps;
  LookupTraffic traffic = {};  // How its Gets draw their keys.
  // Run by --shapes=all; the skewed-traffic shapes are run by name or by
  // --shapes=skewed (they need many Gets for RocksDB's read sampling).
  bool in_all = true;

  // Its measure points' labels, in order.
  std::vector<std::string_view> Points() const;
};

// Every shape, in the order --shapes=all runs them.
const std::vector<TreeShape>& AllShapes();

// "all" (the tree shapes), "skewed" (the skewed-traffic shapes), or shape
// names separated by commas, each once: the shapes in the list's order. InvalidArgument naming a value that is not a shape and
// listing the shapes.
absl::StatusOr<std::vector<const TreeShape*>> FindShapes(std::string_view list);

// "leveled_dynamic, leveled_static, ...": the names, for messages and help.
std::string ShapeNames();

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_SHAPE_H_
