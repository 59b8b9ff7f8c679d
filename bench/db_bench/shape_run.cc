#include "bench/db_bench/shape_run.h"

#include <algorithm>
#include <memory>
#include <numeric>
#include <random>
#include <utility>

#include "absl/strings/str_format.h"
#include "bench/db_bench/progress.h"
#include "bench/db_bench/rebuild_settle.h"
#include "bench/db_bench/run_dir.h"
#include "tools/db_projection.h"

namespace sstfilter::db_bench {

namespace {

using Kind = ShapeStep::Kind;

// What a memtable spends on an entry beyond its key and value: the internal
// key's sequence number and type, the skiplist node, length prefixes and
// the arena's slack. Sizes the overwrite bursts in memtables.
constexpr int64_t kMemtableEntryOverhead = 48;
// RocksDB's write_buffer_size when the shape's flags leave it unset.
constexpr int64_t kRocksDbWriteBufferSize = 64 << 20;
constexpr size_t kWriteBatch = 100;
// Progress lines per write step.
constexpr size_t kWriteReports = 5;

class ShapeRunner {
 public:
  ShapeRunner(const TreeShape& shape, const std::string& policy, const std::string& path,
              const ShapeConfig& config, const StepReporter& report)
      : shape_(shape), policy_(policy), path_(path), config_(config), report_(report) {
    config_.workload.shape.compaction_style = std::string(shape.compaction_style);
    if (shape.compaction_style == "level") {
      config_.workload.shape.level_compaction_dynamic_level_bytes = shape.dynamic_level_bytes;
    }
  }

  absl::StatusOr<std::vector<PointResult>> Run() {
    config_.workload.use_existing_db = false;
    if (absl::Status s = Open(); !s.ok()) return s;
    for (size_t i = 0; i < shape_.steps.size(); ++i) {
      if (absl::Status s = Do(shape_.steps[i], i); !s.ok()) {
        return absl::Status(s.code(), absl::StrFormat("shape %s, %s: %s", shape_.name, policy_,
                                                      s.message()));
      }
    }
    return std::move(points_);
  }

 private:
  absl::Status Open() {
    absl::StatusOr<std::unique_ptr<BenchDb>> db = BenchDb::Open(policy_, path_, config_.workload);
    if (!db.ok()) return db.status();
    db_ = *std::move(db);
    db_->engine().HoldRebuilds(true);  // Let go only in a learning phase.
    return absl::OkStatus();
  }

  int64_t num() const { return config_.workload.num; }

  absl::Status Do(const ShapeStep& step, size_t index) {
    Engine& engine = db_->engine();
    switch (step.kind) {
      case Kind::kFill:
        return Write(FillKeys(step, index), "fill");
      case Kind::kOverwrite:
        return Write(OverwriteKeys(step, index), "overwrite");
      case Kind::kFlush:
        report_("flush");
        return engine.Flush();
      case Kind::kWait:
        report_("wait for the flushes and compactions");
        return engine.WaitForCompactions();
      case Kind::kCompactionsOff:
        report_("compactions off");
        return engine.SetAutoCompactions(false);
      case Kind::kCompactionsOn:
        report_("compactions on");
        return engine.SetAutoCompactions(true);
      case Kind::kReopen:
        report_("close with the last memtable only in the WAL; reopen (the recovery flush)");
        db_.reset();
        config_.workload.use_existing_db = true;
        return Open();
      case Kind::kRead:
        return ReadSkewed(step);
      case Kind::kShift:
        report_("the hot ranges move");
        ++traffic_.hot_seed;
        return absl::OkStatus();
      case Kind::kMeasure:
        if (absl::Status s = Measure(step, std::string(step.label)); !s.ok()) return s;
        return config_.learn_gets > 0 ? Learn(step) : absl::OkStatus();
    }
    return absl::InternalError("unknown step");
  }

  // The keys of a fill: each numbered v < num with v % every == offset, in
  // a random order of their own.
  std::vector<uint64_t> FillKeys(const ShapeStep& step, size_t index) const {
    std::vector<uint64_t> keys;
    for (auto v = static_cast<uint64_t>(step.offset); v < static_cast<uint64_t>(num());
         v += static_cast<uint64_t>(step.every)) {
      keys.push_back(v);
    }
    std::shuffle(keys.begin(), keys.end(), std::mt19937_64(config_.workload.seed + index));
    return keys;
  }

  // `step.memtables` memtables' worth of key numbers in [from, to) x num.
  std::vector<uint64_t> OverwriteKeys(const ShapeStep& step, size_t index) const {
    const WorkloadConfig& w = config_.workload;
    const int64_t memtable = w.shape.write_buffer_size.value_or(kRocksDbWriteBufferSize);
    const auto count = static_cast<size_t>(step.memtables * static_cast<double>(memtable) /
                                           (w.key_size + w.value_size + kMemtableEntryOverhead));
    const auto lo = static_cast<uint64_t>(step.from * static_cast<double>(num()));
    const auto hi = std::max(lo + 1, static_cast<uint64_t>(step.to * static_cast<double>(num())));
    std::mt19937_64 rng(w.seed + index);
    std::uniform_int_distribution<uint64_t> pick(lo, hi - 1);
    std::vector<uint64_t> keys(count);
    for (uint64_t& k : keys) k = pick(rng);
    return keys;
  }

  absl::Status Write(const std::vector<uint64_t>& numbers, const char* what) {
    if (traffic_.recency) {
      written_->insert(written_->end(), numbers.begin(), numbers.end());
      traffic_.written = written_;
    }
    report_(absl::StrFormat("%s: %d keys", what, numbers.size()));
    const WorkloadConfig& w = config_.workload;
    const std::string value(static_cast<size_t>(w.value_size), 'v');
    const size_t report_every = std::max<size_t>(1, numbers.size() / kWriteReports);
    std::vector<std::string> batch;
    for (size_t i = 0; i < numbers.size(); ++i) {
      batch.push_back(MakeKey(numbers[i], w.key_size));
      if (batch.size() == kWriteBatch || i + 1 == numbers.size()) {
        if (absl::Status s = db_->engine().Write(batch, value); !s.ok()) {
          return absl::Status(s.code(), absl::StrFormat("%s: Write failed: %s", what, s.message()));
        }
        batch.clear();
      }
      if ((i + 1) % report_every == 0 && i + 1 < numbers.size()) {
        report_(absl::StrFormat("%s: %d of %d keys", what, i + 1, numbers.size()));
      }
    }
    return absl::OkStatus();
  }

  // The keys written so far, drawn by the traffic.
  ReadKeys Written(int every) const {
    return ReadKeys{(num() + every - 1) / every, every, traffic_};
  }

  // The skewed-traffic shapes are projected table by table, each weighed
  // by its share of the Gets (the optimum of access-aware allocation).
  bool PerTableShares() const { return !shape_.in_all; }

  // The share of the traffic's draws of `keys` that fall in a table's range.
  TableShare TableShareOf(const ReadKeys& keys) const {
    return [draw = std::make_shared<const KeyDraw>(keys.traffic, keys.count),
            step = static_cast<uint64_t>(keys.step),
            key_size = config_.workload.key_size](const TableFilters& t) {
      return draw->ShareOf(KeyNumber(t.smallest, key_size) / step,
                           KeyNumber(t.largest, key_size) / step);
    };
  }

  absl::Status ReadSkewed(const ShapeStep& step) {
    report_(absl::StrFormat("%d absent Gets, %s", config_.round_reads, traffic_.Describe()));
    absl::StatusOr<BenchmarkResult> read =
        db_->RunRead("readmissing", Written(step.every), config_.round_reads);
    return read.status();
  }

  // ShapeConfig::learn_gets after the point `step` measured: absent Gets
  // with the rebuild loop let go, its rewrites settled, the point again.
  absl::Status Learn(const ShapeStep& step) {
    report_(absl::StrFormat("learn at '%s': %d absent Gets, then the rebuild loop's rewrites",
                            step.label, config_.learn_gets));
    Engine& engine = db_->engine();
    const WrittenBytes before = engine.Written();
    engine.HoldRebuilds(false);
    absl::StatusOr<BenchmarkResult> gets =
        db_->RunRead("readmissing", Written(step.every), config_.learn_gets);
    absl::Status settled =
        gets.ok() ? SettleRebuilds(db_.get(), ShapeConfig::kLearnQuiet, ShapeConfig::kLearnLimit)
                  : gets.status();
    engine.HoldRebuilds(true);
    if (!settled.ok()) return settled;
    const WrittenBytes after = engine.Written();
    if (absl::Status s = Measure(step, std::string(step.label) + "+learn"); !s.ok()) return s;
    PointResult& learned = points_.back();
    learned.learned_gets = config_.learn_gets;
    learned.rebuilt_tables = after.rebuilt_tables - before.rebuilt_tables;
    learned.rebuilt_bytes = after.rebuilt - before.rebuilt;
    learned.db_bytes = before.flushes + before.compactions;
    return absl::OkStatus();
  }

  absl::Status Measure(const ShapeStep& step, const std::string& label) {
    report_(
        absl::StrFormat("measure '%s': %d absent Gets, the advisor's projection, %d present "
                        "Gets",
                        label, config_.absent_reads, config_.present_reads));
    const ReadKeys written = Written(step.every);
    PointResult point;
    point.shape = std::string(shape_.name);
    point.point = label;
    point.policy = policy_;
    absl::StatusOr<BenchmarkResult> absent =
        db_->RunRead("readmissing", written, config_.absent_reads);
    if (!absent.ok()) return absent.status();
    point.absent = *std::move(absent);
    point.optimum = ProjectDbTree(path_, PerTableShares() ? TableShareOf(written) : nullptr);
    if (!point.optimum.ok()) {
      report_(absl::StrFormat("the advisor's projection at '%s' failed: %s", label,
                              point.optimum.status().message()));
    }
    absl::StatusOr<BenchmarkResult> present =
        db_->RunRead("readrandom", written, config_.present_reads);
    if (!present.ok()) return present.status();
    point.present = *std::move(present);
    if (point.present.found != point.present.ops) {
      return absl::DataLossError(
          absl::StrFormat("at '%s' %d of %d written keys read were not found", label,
                          point.present.ops - point.present.found, point.present.ops));
    }
    points_.push_back(std::move(point));
    return absl::OkStatus();
  }

  const TreeShape& shape_;
  const std::string& policy_;
  const std::string& path_;
  ShapeConfig config_;
  const StepReporter& report_;
  std::unique_ptr<BenchDb> db_;
  std::vector<PointResult> points_;
  LookupTraffic traffic_ = shape_.traffic;  // Moved by kShift.
  // The keys written so far, in order (traffic by recency).
  std::shared_ptr<std::vector<uint64_t>> written_ = std::make_shared<std::vector<uint64_t>>();
};

}  // namespace

absl::StatusOr<std::vector<PointResult>> RunShape(const TreeShape& shape,
                                                  const std::string& policy,
                                                  const std::string& path,
                                                  const ShapeConfig& config,
                                                  const StepReporter& report) {
  return ShapeRunner(shape, policy, path, config, report).Run();
}

absl::Status RunShapes(const std::vector<const TreeShape*>& shapes,
                       const std::vector<std::string>& policies, const ShapeConfig& config,
                       const std::function<void(const std::vector<PointResult>&)>& shape_done) {
  const size_t runs = shapes.size() * policies.size();
  size_t run = 0;
  for (size_t s = 0; s < shapes.size(); ++s) {
    const TreeShape& shape = *shapes[s];
    std::vector<PointResult> results;
    for (size_t p = 0; p < policies.size(); ++p, ++run) {
      const StepReporter report = [&](std::string_view step) {
        ProgressLine(absl::StrFormat("%s (shape %d of %d), %s (policy %d of %d): %s; %d of %d "
                                     "runs left after this one",
                                     shape.name, s + 1, shapes.size(), policies[p], p + 1,
                                     policies.size(), step, runs - run - 1, runs));
      };
      absl::StatusOr<RunDir> dir =
          RunDir::Make(config.db, absl::StrFormat("%s.%d", shape.name, p));
      if (!dir.ok()) return dir.status();
      absl::StatusOr<std::vector<PointResult>> points =
          RunShape(shape, policies[p], dir->path(), config, report);
      if (!points.ok()) return points.status();
      for (PointResult& point : *points) results.push_back(std::move(point));
    }
    shape_done(results);
  }
  return absl::OkStatus();
}

}  // namespace sstfilter::db_bench
