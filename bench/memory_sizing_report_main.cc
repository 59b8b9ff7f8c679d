// What optimize_filters_for_memory buys and costs: many filters of random
// sizes built through each policy's RocksDB builder with the option off and
// on, with the process's allocator (run it again under
// LD_PRELOAD=libjemalloc.so.2 for jemalloc's classes). Per policy and mode:
// filter bytes (disk), the memory RocksDB holds them in (malloc_usable_size
// of block + 5-byte trailer, what the block cache is charged, less its
// fixed per-block object), the waste inside those allocations, and the FP
// rate measured over absent keys (every filter asked equally often) and,
// for ours, by the encoding's model.
//
//   sstfilter_memory_sizing_report [--filters=1000] [--min_keys=1000]
//       [--max_keys=100000] [--bits_per_key=10] [--queries=10000] [--seed=1]
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_format.h"
#include "filter/encodings.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/table.h"
#include "table/rocksdb/allocator_usable_size.h"
#include "table/rocksdb/rocksdb_filter_policy.h"
#include "table/rocksdb/rocksdb_internal.h"

ABSL_FLAG(int, filters, 1000, "filters per policy and mode");
ABSL_FLAG(int64_t, min_keys, 1000, "fewest keys in a filter");
ABSL_FLAG(int64_t, max_keys, 100000, "most keys in a filter (uniform in [min, max])");
ABSL_FLAG(double, bits_per_key, 10, "bits per key of every policy");
ABSL_FLAG(int, queries, 10000, "absent keys asked of each filter");
ABSL_FLAG(uint64_t, seed, 1, "seed of the filter sizes and keys");

namespace sstfilter {
namespace {

struct Totals {
  double keys = 0, filter_bytes = 0, memory = 0, waste = 0;
  double queries = 0, positives = 0, model_fp_sum = 0;
  int filters = 0;
};

// 16 bytes: v, then a second pseudo-random word derived from it.
std::string Key(uint64_t v) {
  const uint64_t words[2] = {v, v * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL};
  std::string key(16, '\0');
  std::memcpy(key.data(), words, 16);
  return key;
}

// Builds flags.filters filters through one policy (one policy per run: its
// FP credit spans them, as in a DB) and asks each the same number of
// absent keys. Filter i has the same keys and queries in every run.
Totals Run(const rocksdb::FilterPolicy& policy, bool optimize, bool has_model) {
  rocksdb::BlockBasedTableOptions table;
  table.optimize_filters_for_memory = optimize;
  const rocksdb::FilterBuildingContext context(table);
  std::mt19937_64 sizes(absl::GetFlag(FLAGS_seed));
  const auto min_keys = static_cast<uint64_t>(absl::GetFlag(FLAGS_min_keys));
  const auto span = static_cast<uint64_t>(absl::GetFlag(FLAGS_max_keys)) - min_keys + 1;
  Totals t;
  for (int i = 0; i < absl::GetFlag(FLAGS_filters); ++i) {
    const size_t n = min_keys + sizes() % span;
    std::mt19937_64 keys(sizes());
    std::unique_ptr<rocksdb::FilterBitsBuilder> builder(policy.GetBuilderWithContext(context));
    // Present keys have the top bit clear, absent ones set: never equal.
    for (size_t k = 0; k < n; ++k) builder->AddKey(Key(keys() >> 1));
    std::unique_ptr<const char[]> buf;
    const rocksdb::Slice filter = builder->Finish(&buf);
    std::unique_ptr<rocksdb::FilterBitsReader> reader(policy.GetFilterBitsReader(filter));
    for (int q = 0; q < absl::GetFlag(FLAGS_queries); ++q) {
      t.positives += reader->MayMatch(Key(keys() | (uint64_t{1} << 63)));
    }
    const size_t block = filter.size() + kRocksDbBlockTrailerBytes;
    const size_t usable = AllocatorUsableSize(block);
    t.keys += static_cast<double>(n);
    t.filter_bytes += static_cast<double>(filter.size());
    t.memory += static_cast<double>(usable);
    t.waste += static_cast<double>(usable - block);
    t.queries += absl::GetFlag(FLAGS_queries);
    if (has_model) {
      t.model_fp_sum +=
          DescribeFilter(std::string_view(filter.data(), filter.size()))
              .ExpectedFpRate(static_cast<double>(n));
    }
    ++t.filters;
  }
  return t;
}

void Print(const std::string& name, const Totals& off, const Totals& on, bool has_model) {
  const auto row = [&](const char* mode, const Totals& t) {
    const double fp = t.positives / t.queries;
    std::printf("%-32s %-4s %9.3f %9.3f %8.2f%% %7.4f%% %s\n", name.c_str(), mode,
                t.filter_bytes / 1e6, t.memory / 1e6, 100.0 * t.waste / t.memory, 100.0 * fp,
                has_model ? absl::StrFormat("%7.4f%%", 100.0 * t.model_fp_sum / t.filters).c_str()
                          : "      -");
  };
  row("off", off);
  row("on", on);
  const double fp_off = off.positives / off.queries, fp_on = on.positives / on.queries;
  // Binomial standard error of the difference of the two measured rates.
  const double se =
      std::sqrt(fp_off * (1 - fp_off) / off.queries + fp_on * (1 - fp_on) / on.queries);
  std::printf("%-32s on/off: disk %+.2f%%, memory %+.2f%%, measured FP %+.2f%% "
              "(+-%.2f%% 1 s.e.)%s\n",
              name.c_str(), 100.0 * (on.filter_bytes / off.filter_bytes - 1),
              100.0 * (on.memory / off.memory - 1), 100.0 * (fp_on / fp_off - 1),
              100.0 * se / fp_off,
              has_model ? absl::StrFormat(", model FP %+.2f%%",
                                          100.0 * (on.model_fp_sum / off.model_fp_sum - 1))
                              .c_str()
                        : "");
}

int Main() {
  const double bits = absl::GetFlag(FLAGS_bits_per_key);
  std::printf("%d filters of %" PRId64 "..%" PRId64 " keys, %g bits/key, %d queries each; "
              "allocator reports size classes: %s (usable(1001) = %zu)\n",
              absl::GetFlag(FLAGS_filters), absl::GetFlag(FLAGS_min_keys),
              absl::GetFlag(FLAGS_max_keys), bits, absl::GetFlag(FLAGS_queries),
              AllocatorReportsUsableSize() ? "yes" : "no", AllocatorUsableSize(1001));
  std::printf("%-32s %-4s %9s %9s %9s %8s %8s\n", "policy", "ofm", "disk MB", "memory MB",
              "waste", "FP meas.", "FP model");
  for (EncodingId encoding : AllEncodingIds()) {
    FilterOptions options;
    options.bits_per_key = bits;
    options.encoding = encoding;
    auto policy = NewRocksDbFilterPolicy(options);
    if (!policy.ok()) {
      std::fprintf(stderr, "%s\n", policy.status().ToString().c_str());
      return 1;
    }
    // A fresh policy per mode: each starts with no FP credit.
    auto again = NewRocksDbFilterPolicy(options);
    Print(absl::StrFormat("sstfilter.bloom:%g:%s", bits, EncodingName(encoding)),
          Run(**policy, false, true), Run(**again, true, true), true);
  }
  std::unique_ptr<const rocksdb::FilterPolicy> builtin_off(rocksdb::NewBloomFilterPolicy(bits));
  std::unique_ptr<const rocksdb::FilterPolicy> builtin_on(rocksdb::NewBloomFilterPolicy(bits));
  Print(absl::StrFormat("bloomfilter:%g (FastLocalBloom)", bits), Run(*builtin_off, false, false),
        Run(*builtin_on, true, false), false);
  return 0;
}

}  // namespace
}  // namespace sstfilter

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "optimize_filters_for_memory off and on: filter bytes, memory, waste, FP");
  absl::ParseCommandLine(argc, argv);
  return sstfilter::Main();
}
