#include "table/rocksdb/level_accuracy.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "filter/fp_target.h"
#include "filter/level_allocation.h"
#include "table/rocksdb/level_format.h"

namespace sstfilter {

namespace {

uint64_t At(const std::vector<uint64_t>& v, size_t i) { return i < v.size() ? v[i] : 0; }

// A run's reach as the census measured it; 1 where it has none (a level
// that held no table when the census was taken).
double ReachAt(const std::vector<double>& v, size_t i) {
  return i < v.size() && v[i] > 0 ? v[i] : 1.0;
}

// The deepest level holding tables or receiving them (0 if only L0 does).
int DeepestLevel(const TreeRuns& runs) {
  for (size_t level = std::max(runs.levels.size(), runs.incoming.size()); level-- > 1;) {
    if (At(runs.levels, level) + At(runs.incoming, level) > 0) return static_cast<int>(level);
  }
  return 0;
}

}  // namespace

double TableFpTarget(const FilterOptions& options, const TreeRuns& runs, const TablePlace& place,
                     size_t num_entries) {
  const double bits = options.bits_per_key;
  const int deepest = std::max(DeepestLevel(runs), place.level);
  // The style only matters to FormatForLevel under FIFO; tables at levels
  // are leveled or universal.
  auto encoding_at = [&](int level) {
    return FormatForLevel(options, rocksdb::kCompactionStyleLevel, level, level == deepest);
  };
  std::vector<RunModel> models;
  for (size_t i = 0; i < runs.l0_tables.size(); ++i) {
    if (runs.l0_tables[i] == 0) continue;
    models.push_back(EncodingRunModel(encoding_at(0), runs.l0_tables[i], bits));
    models.back().reach = ReachAt(runs.l0_reach, i);
  }
  const double n = static_cast<double>(num_entries);
  size_t mine = 0;
  if (place.level <= 0) {
    const double mean = runs.l0_tables.empty()
                            ? 0
                            : std::accumulate(runs.l0_tables.begin(), runs.l0_tables.end(), 0.0) /
                                  static_cast<double>(runs.l0_tables.size());
    mine = models.size();
    models.push_back(EncodingRunModel(place.encoding, std::max({n, mean, 1.0}), bits));
  }
  const size_t levels = std::max({runs.levels.size(), runs.incoming.size(),
                                  static_cast<size_t>(place.level) + 1});
  for (size_t level = 1; level < levels; ++level) {
    double keys = static_cast<double>(At(runs.levels, level) + At(runs.incoming, level));
    const bool is_mine = static_cast<int>(level) == place.level;
    if (is_mine) keys = std::max({keys, n, 1.0});
    if (keys <= 0) continue;
    if (is_mine) mine = models.size();
    const EncodingId e = is_mine ? place.encoding : encoding_at(static_cast<int>(level));
    models.push_back(EncodingRunModel(e, keys, bits));
    models.back().reach = ReachAt(runs.level_reach, level);
  }
  return AllocateRunFpRates(models)[mine];
}

std::function<double(size_t)> LevelBitsForTable(const FilterOptions& options,
                                                const rocksdb::FilterBuildingContext& context,
                                                EncodingId encoding) {
  if (!options.optimize_levels) return nullptr;
  if (context.level_at_creation < 0 && !IsFlush(context)) return nullptr;
  std::optional<TreeRuns> runs =
      LevelCensus::Instance().Find(context.info_log, context.column_family_name);
  if (!runs.has_value()) return nullptr;
  const TablePlace place{IsFlush(context) ? 0 : std::max(context.level_at_creation, 0), encoding};
  // The target is worked out at the first Finish (a flush's run is its
  // own size) and kept for the table's later partitions.
  return [options, runs = *std::move(runs), place,
          fp = std::optional<double>()](size_t num_entries) mutable {
    if (!fp.has_value()) fp = TableFpTarget(options, runs, place, num_entries);
    return BitsPerKeyForFp(place.encoding, std::max<size_t>(num_entries, 1), *fp);
  };
}

}  // namespace sstfilter
