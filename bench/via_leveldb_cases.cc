#include "bench/via_leveldb_cases.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bench/bench_rng.h"
#include "bench/filter_impls.h"
#include "bench/key_shapes.h"
#include "bench/ratio_reporter.h"
#include "benchmark/benchmark.h"
#include "filter/encodings.h"
#include "leveldb/filter_policy.h"
#include "leveldb/slice.h"
#include "table/leveldb/leveldb_filter_policy.h"

namespace sstfilter::bench {
namespace {

// Keys' worth of small filters in a set: a few dozen KB of filter block,
// the hot part of a table.
constexpr size_t kSetKeys = 8192;
// Queries of a case's plan: a power of two, so a random slot is a shift.
// Their keys (8 KB) and the filter set stay in L1/L2: the harness adds
// the same few ns to every implementation, not cache misses of its own.
constexpr size_t kPlanBits = 9;
constexpr size_t kPlanQueries = size_t{1} << kPlanBits;
constexpr size_t kKeyBytes = 16;  // KeyShape::kRandom16.
constexpr uint64_t kAbsentBase = uint64_t{1} << 40;  // Far from every present index.

ViaLevelDbConfig& Config() {
  static auto* config = new ViaLevelDbConfig();
  return *config;
}

std::unique_ptr<const leveldb::FilterPolicy> NewPolicy(const std::string& impl) {
  const double bits_per_key = Config().bits_per_key;
  if (impl == kLibLevelDbImpl) {
    return std::unique_ptr<const leveldb::FilterPolicy>(
        leveldb::NewBloomFilterPolicy(static_cast<int>(std::lround(bits_per_key))));
  }
  std::unique_ptr<const leveldb::FilterPolicy> policy;
  ForEachEncoding([&](auto encoding) {
    using E = decltype(encoding);
    if (impl != OurImplName(E::kInfo.name)) return;
    FilterOptions options;
    options.bits_per_key = bits_per_key;
    options.encoding = E::kId;
    policy = NewLevelDbFilterPolicy(options).value();  // Checked when registering.
  });
  return policy;
}

// One implementation's filters of one key count, back to back in one
// string as in a LevelDB filter block (no alignment).
struct PolicySet {
  std::unique_ptr<const leveldb::FilterPolicy> policy;
  std::string block;
  std::vector<leveldb::Slice> filters;
};

// The queries of one case: key j (kKeyBytes bytes at keys[j * kKeyBytes])
// against filter filter_of[j] of the set.
struct QueryPlan {
  std::string keys;
  std::vector<uint32_t> filter_of;
};

// The filters of every implementation for one key count, and its queries.
struct CountState {
  size_t num_keys = 0;
  size_t num_filters = 0;
  std::map<std::string, PolicySet> sets;
  QueryPlan present, absent;  // Keys of the query's filter; keys of no filter.
};

std::unique_ptr<CountState>& State() {
  static auto* state = new std::unique_ptr<CountState>();
  return *state;
}

// The sets of key count n, built on first use (the previous count's freed).
CountState& StateFor(size_t n) {
  std::unique_ptr<CountState>& state = State();
  if (state != nullptr && state->num_keys == n) return *state;
  state.reset();
  const auto start = std::chrono::steady_clock::now();
  auto s = std::make_unique<CountState>();
  s->num_keys = n;
  s->num_filters = std::max<size_t>(1, kSetKeys / n);
  // Filter f holds keys [f * n, (f + 1) * n) of the shape.
  const KeySet present(KeyShape::kRandom16, 0, s->num_filters * n);
  std::vector<leveldb::Slice> slices;
  slices.reserve(present.size());
  for (std::string_view key : present.keys()) slices.emplace_back(key.data(), key.size());
  for (const std::string& impl : Config().impls) {
    PolicySet& set = s->sets[impl];
    set.policy = NewPolicy(impl);
    std::vector<size_t> ends;
    for (size_t f = 0; f < s->num_filters; ++f) {
      set.policy->CreateFilter(slices.data() + f * n, static_cast<int>(n), &set.block);
      ends.push_back(set.block.size());
    }
    size_t begin = 0;
    for (size_t end : ends) {
      set.filters.emplace_back(set.block.data() + begin, end - begin);
      begin = end;
    }
    std::fprintf(stderr, "[micro] ViaLevelDB n%zu %s (%s): %zu filters of %zu bytes = %.1f KiB\n",
                 n, impl.c_str(), set.policy->Name(), s->num_filters, set.filters[0].size(),
                 set.block.size() / 1024.0);
  }
  // Each query a random filter; a random key of it, or a key of none.
  const KeySet absent(KeyShape::kRandom16, kAbsentBase, kPlanQueries);
  BenchRng rng;
  for (size_t j = 0; j < kPlanQueries; ++j) {
    const auto f = static_cast<uint32_t>(rng.Below(s->num_filters));
    s->present.filter_of.push_back(f);
    s->present.keys.append(present.keys()[f * n + rng.Below(n)]);
    s->absent.filter_of.push_back(static_cast<uint32_t>(rng.Below(s->num_filters)));
    s->absent.keys.append(absent.keys()[j]);
  }
  std::fprintf(stderr, "[micro] ViaLevelDB n%zu: set up in %.2f s\n", n,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  state = std::move(s);
  return *state;
}

void SetPerKey(benchmark::State& state, size_t matches) {
  const double keys = static_cast<double>(state.iterations());
  state.counters[kPerKeyCounter] = benchmark::Counter(
      keys, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters[kMatchCounter] = benchmark::Counter(keys > 0 ? matches / keys : 0);
}

// One KeyMayMatch per iteration: a random query of the plan (xorshift64*,
// inline: a few instructions, no memory).
void BM_KeyMayMatch(benchmark::State& state, const std::string& impl, size_t n, bool present) {
  CountState& s = StateFor(n);
  const leveldb::FilterPolicy& policy = *s.sets.at(impl).policy;
  const leveldb::Slice* filters = s.sets.at(impl).filters.data();
  const QueryPlan& plan = present ? s.present : s.absent;
  const char* keys = plan.keys.data();
  const uint32_t* filter_of = plan.filter_of.data();
  uint64_t x = 0x9e3779b97f4a7c15ULL;
  size_t matches = 0;
  for (auto _ : state) {
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    const size_t j = static_cast<size_t>((x * 0x2545f4914f6cdd1dULL) >> (64 - kPlanBits));
    matches += policy.KeyMayMatch(leveldb::Slice(keys + j * kKeyBytes, kKeyBytes),
                                  filters[filter_of[j]]);
  }
  SetPerKey(state, matches);
}

}  // namespace

bool HasLevelDbPolicy(const std::string& impl) {
  if (impl == kLibLevelDbImpl) return true;
  const std::vector<std::string> ours = OurImplNames();
  return std::find(ours.begin(), ours.end(), impl) != ours.end();
}

std::vector<std::string> DefaultViaLevelDbImpls() {
  std::vector<std::string> impls = {kLibLevelDbImpl};
  for (std::string& ours : OurImplNames()) impls.push_back(std::move(ours));
  return impls;
}

absl::StatusOr<std::string> RegisterViaLevelDbCases(const ViaLevelDbConfig& config) {
  for (const std::string& impl : config.impls) {
    if (!HasLevelDbPolicy(impl)) {
      return absl::InvalidArgumentError(
          absl::StrFormat("'%s' has no LevelDB policy (these are libleveldb and %s)", impl,
                          absl::StrJoin(OurImplNames(), ", ")));
    }
  }
  for (size_t n : config.num_keys) {
    if (n == 0 || n > (size_t{1} << 31)) {
      return absl::InvalidArgumentError(
          absl::StrFormat("%d keys per filter is outside [1, 2^31]", n));
    }
  }
  if (config.rounds < 1) {
    return absl::InvalidArgumentError(absl::StrFormat("%d rounds: at least 1", config.rounds));
  }
  if (!(config.bits_per_key > 0)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("bits_per_key=%g: must be above 0", config.bits_per_key));
  }
  Config() = config;
  if (config.impls.empty() || config.num_keys.empty()) return std::string();
  for (size_t n : config.num_keys) {
    for (int round = 0; round < config.rounds; ++round) {
      for (bool present : {true, false}) {
        for (const std::string& impl : config.impls) {
          const std::string name = absl::StrFormat("%sn%d/%s/%s", kViaLevelDbPrefix, n,
                                                   present ? "present" : "absent", impl);
          benchmark::RegisterBenchmark(name.c_str(), BM_KeyMayMatch, impl, n, present)
              ->MinTime(config.min_time);
        }
      }
    }
  }
  return absl::StrFormat(
      "ViaLevelDB: leveldb::FilterPolicy::KeyMayMatch per query, 16-byte random keys, filters "
      "of %s keys (%d keys' worth of small filters, a random one per query; %d queries "
      "drawn at random), %d rounds, fastest kept",
      absl::StrJoin(config.num_keys, "/"), kSetKeys, kPlanQueries, config.rounds);
}

}  // namespace sstfilter::bench
