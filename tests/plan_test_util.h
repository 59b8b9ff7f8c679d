// What the plan's tests (cache_budget_test.cc, rebuild_gain_test.cc,
// fp_rebuilds_test.cc) build their hand-made trees and caches from.
#ifndef SSTFILTER_TESTS_PLAN_TEST_UTIL_H_
#define SSTFILTER_TESTS_PLAN_TEST_UTIL_H_

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "absl/strings/str_format.h"
#include "filter/allocation/run_allocation.h"
#include "filter/allocation/tree_runs.h"
#include "filter/allocation/tree_traffic.h"
#include "filter/filter_options.h"
#include "filter/plan/cache_budget.h"

namespace sstfilter {

inline constexpr double kTestMib = 1024.0 * 1024;

// 35 entries a 4 KiB data block, 120 data blocks an index partition of
// 4 KiB.
inline BlockShape TestBlockShape() {
  BlockShape shape;
  shape.entries = 35 * 120;
  shape.data_blocks = 120, shape.data_bytes = 120 * 4096.0;
  shape.index_blocks = 1, shape.index_bytes = 4096;
  return shape;
}

// L1-L3 of 100,000, 1M and 10M keys in tables of 100,000, every filter
// built at `bits` per key (none at `bare_level`), each level's reach
// `reach` (1 where not given), TestBlockShape's blocks.
inline TreeRuns ThreeLevelTree(double bits, int bare_level = 0,
                               const std::map<int, double>& reach = {}) {
  TreeRuns runs;
  runs.levels.resize(4);
  for (int level = 1; level <= 3; ++level) {
    const uint64_t keys = 10000 * static_cast<uint64_t>(std::pow(10, level));
    RunCensus& run = runs.levels[level];
    run.keys = run.fixed_keys = keys;
    run.tables = keys / 100000;
    const bool bare = level == bare_level;
    run.fixed_filter_bits = bare ? 0 : static_cast<uint64_t>(bits * static_cast<double>(keys));
    run.unfiltered_keys = bare ? keys : 0;
    if (const auto r = reach.find(level); r != reach.end()) run.reach = r->second;
  }
  runs.blocks = TestBlockShape();
  return runs;
}

// The cache_local encoding's FP at `bits` per key, by bisection on its
// model for a run of `keys` in filters of `filter_keys` (0: one) (the run
// model the plan weighs runs with, exact where the plan samples its curve).
inline double CacheLocalFpAt(double bits, double keys = 1e6, double filter_keys = 0) {
  const RunModel model = EncodingRunModel(EncodingId::kCacheLocal, keys, 10, filter_keys);
  double low = std::log(1e-9), high = 0;
  for (int i = 0; i < 60; ++i) {
    const double mid = (low + high) / 2;
    (model.bits_for_fp(std::exp(mid)) > bits ? low : high) = mid;
  }
  return std::exp(low);
}

// cache_aware over cache_local filters, for `hit_share` of Gets found.
inline FilterOptions CacheAware(double hit_share) {
  FilterOptions options;
  options.encoding = EncodingId::kCacheLocal;
  options.per_level.optimize_levels = options.per_level.cache_aware = true;
  options.per_level.hit_share = hit_share;
  return options;
}

// A block cache of `mib` MiB, partitioned filters of 4 KiB.
inline CacheSite Cache(double mib) {
  CacheSite cache;
  cache.capacity_bytes = mib * kTestMib;
  return cache;
}

// The least (`last` false) or greatest user key of BottomTraffic's i-th
// table.
inline std::string BottomTableKey(int i, bool last) {
  return absl::StrFormat("key%03d%s", i, last ? "z" : "a");
}

// The traffic of a tree whose L3 holds 100 tables of 100,000 keys: the
// i-th with share(i) of the Gets (its uniform share: 0.01), its keys
// BottomTableKey(i, ...), each lived through every counted Get (and drew
// its share of them).
inline std::shared_ptr<const TreeTraffic> BottomTraffic(const std::function<double(int)>& share) {
  auto traffic = std::make_shared<TreeTraffic>();
  traffic->gets = 1000;
  traffic->levels.resize(4);
  for (int i = 0; i < 100; ++i) {
    TableTraffic t;
    t.range.keys = 100000;
    t.range.smallest = BottomTableKey(i, false), t.range.largest = BottomTableKey(i, true);
    t.uniform = 0.01;
    t.share = share(i);
    t.evidence = traffic->gets * t.uniform;
    t.sampled = t.share * traffic->gets;
    traffic->levels[3].push_back(t);
  }
  return traffic;
}

// ThreeLevelTree at ten bits a key, with a spread to sharpen: of the 100
// bottom tables (BottomTraffic), one saw twice its share of the Gets.
inline TreeRuns BuiltTreeWithAHotTable() {
  TreeRuns runs = ThreeLevelTree(10);
  runs.traffic = BottomTraffic([](int i) { return i == 0 ? 0.02 : 0.01; });
  return runs;
}

}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_PLAN_TEST_UTIL_H_
