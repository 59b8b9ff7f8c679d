#include "filter/cache_model/cache_reads.h"

#include <algorithm>
#include <cmath>

namespace sstfilter {

namespace {

// Blocks alike: `count` of `bytes` each, each requested `rate` times per Get.
struct BlockClass {
  double count = 0;
  double bytes = 0;
  double rate = 0;
  bool high = false;        // In the high-priority pool (index and filter blocks).
  double* reads = nullptr;  // Where its misses count.
};

// Bytes held at some t, and how fast they grow with t.
struct Fill {
  double bytes = 0;
  double growth = 0;
};

// The t at which `fill(t).bytes` (0 at 0, increasing and concave: a sum of
// c * (1 - e^(-r t))) reaches `bytes`; infinity if it never does. Newton's
// steps from t = 0: on a concave curve each lands at or below the root, so
// they climb to it without passing it, and stop when a step moves t by
// less than a part in 1e12.
template <typename FillAt>
double TimeToFill(FillAt fill, double bytes) {
  if (fill(INFINITY).bytes <= bytes) return INFINITY;
  double t = 0;
  for (int i = 0; i < 1000; ++i) {
    const Fill f = fill(t);
    if (f.bytes >= bytes || !(f.growth > 0)) break;
    const double step = (bytes - f.bytes) / f.growth;
    t += step;
    if (step <= 1e-12 * t) break;
  }
  return t;
}

// The bytes of `c` requested within t Gets of the last request.
double Held(const BlockClass& c, double t) { return c.count * c.bytes * -std::expm1(-c.rate * t); }

// How fast Held(c, t) grows with t.
double HeldGrowth(const BlockClass& c, double t) {
  return c.count * c.bytes * c.rate * std::exp(-c.rate * t);
}

// `count` blocks of `bytes` together (each charged the workload's overhead
// besides), requested `requests` times per Get together, spread over the
// key space as the workload's popularity spreads the Gets.
void AddClass(double count, double bytes, double requests, bool high, double* reads,
              const CacheWorkload& workload, std::vector<BlockClass>* classes) {
  if (count <= 0 || requests <= 0) return;
  const double charge = bytes / count + workload.block_overhead_bytes;
  for (const BlockGroup& group : GroupBlocks(workload.popularity, count)) {
    classes->push_back({group.count, charge, requests / count * group.density, high, reads});
  }
}

// Each class's blocks, and what each run's Gets request of them.
std::vector<BlockClass> ClassesOf(const std::vector<RunBlocks>& runs,
                                  const CacheWorkload& workload, GetReads* reads) {
  const double hit = workload.hit_share;
  double keys = 0;
  for (const RunBlocks& run : runs) keys += run.keys;
  std::vector<BlockClass> classes;
  if (keys <= 0) return classes;
  // Share of present Gets whose key is in a later (deeper) run.
  double deeper = 1;
  for (const RunBlocks& run : runs) {
    const double here = run.keys / keys;
    deeper = std::max(deeper - here, 0.0);
    const bool filtered = run.filter_blocks > 0;
    const double fp = filtered ? run.fp_rate : 1.0;
    // Filter checks, then index and data reads, per Get.
    const double checks = (1 - hit) * run.reach + hit * (here + deeper);
    const double passes = (1 - hit) * run.reach * fp + hit * (deeper * fp + here);
    if (filtered) {
      AddClass(run.filter_blocks, run.filter_bytes,
               checks * std::clamp(run.filtered_share, 0.0, 1.0), true, &reads->filter, workload,
               &classes);
    }
    AddClass(run.index_blocks, run.index_bytes, passes, true, &reads->index, workload, &classes);
    AddClass(run.data_blocks, run.data_bytes, passes, false, &reads->data, workload, &classes);
  }
  return classes;
}

// Per Get of the workload's window: one miss for each new filter block,
// read into the cache as its table opens, whether or not a Get asks for
// it (from then on it is held or not as the steady state says).
double NewFilterMisses(const std::vector<RunBlocks>& runs, const CacheWorkload& workload) {
  if (workload.new_filter_share <= 0 || workload.window_gets <= 0) return 0;
  double blocks = 0;
  for (const RunBlocks& run : runs) blocks += run.filter_blocks;
  return blocks * workload.new_filter_share / workload.window_gets;
}

}  // namespace

GetReads PredictReads(const std::vector<RunBlocks>& runs, const CacheWorkload& workload) {
  GetReads reads;
  const std::vector<BlockClass> classes = ClassesOf(runs, workload, &reads);
  const double capacity = workload.capacity_bytes;
  const double pool = capacity * std::clamp(workload.high_pri_ratio, 0.0, 1.0);
  // T_high: the high-priority blocks filling their pool.
  const double t_high = TimeToFill(
      [&](double t) {
        Fill f;
        for (const BlockClass& c : classes) {
          if (c.high) f.bytes += Held(c, t), f.growth += HeldGrowth(c, t);
        }
        return f;
      },
      pool);
  // T_low: the rest of the cache, filled by what fell out of the pool
  // (requested within t_high + t, not within t_high) and the data blocks.
  // A pool its blocks leave part empty lends the rest to the data.
  double high_bytes = 0;
  for (const BlockClass& c : classes) high_bytes += c.high ? Held(c, t_high) : 0;
  const double t_low = TimeToFill(
      [&](double t) {
        Fill f;
        for (const BlockClass& c : classes) {
          const double since = c.high ? t_high + t : t;
          f.bytes += c.high ? Held(c, since) - Held(c, t_high) : Held(c, since);
          f.growth += HeldGrowth(c, since);
        }
        return f;
      },
      capacity - high_bytes);
  for (const BlockClass& c : classes) {
    const double t = c.high ? t_high + t_low : t_low;
    if (!std::isinf(t)) *c.reads += c.count * c.rate * std::exp(-c.rate * t);
  }
  reads.filter += NewFilterMisses(runs, workload);
  return reads;
}

}  // namespace sstfilter
