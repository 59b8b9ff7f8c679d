// The memory/reads frontier (--frontier): data-block reads per absent Get
// against filter bytes per key, one curve per policy family, each family
// run at several settings on the same workload. The frontier is what a
// user chooses from: at a memory, the fewest wasted reads; at a number of
// reads, the least memory.
#ifndef SSTFILTER_BENCH_DB_BENCH_FRONTIER_H_
#define SSTFILTER_BENCH_DB_BENCH_FRONTIER_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace sstfilter::db_bench {

// The default families (--frontier_families): RocksDB's uniform Bloom and
// Ribbon, each of our encodings uniform and per level, and per level with
// a compact bottom. N is the setting (bits per key); * each encoding.
inline constexpr char kDefaultFrontierFamilies[] =
    "bloomfilter:N,ribbonfilter:N,sstfilter.bloom:N:*,sstfilter.bloom:N:*:optimize_levels,"
    "sstfilter.bloom:N:cache_local:compact_from_level:5:optimize_levels";

// One family: the filter strings of its curve, one per setting.
struct FrontierFamily {
  std::string label;                 // Its filter string with N for the setting.
  std::vector<std::string> filters;  // Same order as the settings.
};

// "6,8,10,12" -> settings, each in [1, 100], at least two, no repeats.
absl::StatusOr<std::vector<double>> ParseFrontierSettings(const std::string& list);

// The families of a --frontier_families list (compare-list syntax with N
// for the setting in each filter string), "*" expanded to each encoding.
absl::StatusOr<std::vector<FrontierFamily>> ExpandFrontierFamilies(
    std::string_view list, const std::vector<double>& settings);

// One run: a family at one setting.
struct FrontierPoint {
  double setting = 0;
  double bytes_per_key = 0;  // Live tables' filter bytes / their keys.
  double reads_per_op = 0;   // Data blocks read per absent Get.
  double micros_per_op = 0;  // Per absent Get.
};

struct FrontierCurve {
  std::string label;
  std::vector<FrontierPoint> points;  // In setting order.
};

// Where the curve crosses a number of reads per op (or a bytes per key):
// a straight line in bytes and log(reads) between the two points around
// it; nullopt outside the curve's range or where a point read no block.
std::optional<double> BytesAtReads(const FrontierCurve& curve, double reads_per_op);
std::optional<double> ReadsAtBytes(const FrontierCurve& curve, double bytes_per_key);

// The points, then each family against the reference (curves[0] at
// `reference_setting`): filter bytes for the reference's reads, and reads
// at the reference's bytes, as ratios to the reference.
std::string FrontierTable(const std::vector<FrontierCurve>& curves, double reference_setting);

// family,setting,filter_bytes_per_key,data_block_reads_per_absent_get,micros_per_absent_get
std::string FrontierCsv(const std::vector<FrontierCurve>& curves);

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_FRONTIER_H_
