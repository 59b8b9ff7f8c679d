#include "bench/via_rocksdb_cases.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bench/bench_rng.h"
#include "bench/filter_impls.h"
#include "bench/ratio_reporter.h"
#include "bench/rocksdb_reader_set.h"
#include "benchmark/benchmark.h"
#include "filter/encodings.h"

namespace sstfilter::bench {
namespace {

constexpr size_t kPoolKeys = 1 << 14;  // A power of two: a random index is one mask.
constexpr size_t kBatch = 32;          // A MultiGet batch at its largest.
constexpr size_t kMinKeyLength = 8;
constexpr size_t kMaxKeyLength = 1024;
constexpr uint64_t kPhaseSeed = 0x5eed;

// Decimal digits a key of `length` holds after its tag, and how many
// distinct values they take (the scrambled index below is a bijection
// modulo that).
size_t DigitsOf(size_t length) { return std::min<size_t>(length - 1, 19); }
uint64_t ValuesOf(size_t length) {
  uint64_t v = 1;
  for (size_t d = 0; d < DigitsOf(length); ++d) v *= 10;
  return v;
}

// Key i of one tag: the tag, then i scrambled (times an odd multiplier not
// divisible by 5, so distinct i below ValuesOf(length) give distinct keys)
// as zero-padded decimal, left-padded with '0' to `length` bytes.
void AppendTextKey(char tag, uint64_t i, size_t length, std::string* dst) {
  const uint64_t values = ValuesOf(length);
  const uint64_t scrambled = static_cast<uint64_t>(
      (static_cast<unsigned __int128>(i) * 0x9e3779b97f4a7c15ULL) % values);
  dst->push_back(tag);
  dst->append(length - 1 - DigitsOf(length), '0');
  dst->append(absl::StrFormat("%0*d", static_cast<int>(DigitsOf(length)), scrambled));
}

// count keys of one tag and length in one arena, as the Slices a reader takes.
class TextKeys {
 public:
  TextKeys(char tag, size_t count, size_t length) {
    arena_.reserve(count * length);
    for (size_t i = 0; i < count; ++i) AppendTextKey(tag, i, length, &arena_);
    for (size_t i = 0; i < count; ++i) {
      slices_.emplace_back(arena_.data() + i * length, length);
      views_.emplace_back(arena_.data() + i * length, length);
    }
    for (rocksdb::Slice& s : slices_) pointers_.push_back(&s);
  }
  TextKeys(const TextKeys&) = delete;
  TextKeys& operator=(const TextKeys&) = delete;

  size_t size() const { return slices_.size(); }
  const rocksdb::Slice& slice(size_t i) const { return slices_[i]; }
  // MultiGet's form: keys i .. i + n - 1 as an array of Slice pointers.
  rocksdb::Slice** pointers(size_t i) { return pointers_.data() + i; }
  const std::vector<std::string_view>& views() const { return views_; }

 private:
  std::string arena_;
  std::vector<rocksdb::Slice> slices_;
  std::vector<rocksdb::Slice*> pointers_;
  std::vector<std::string_view> views_;
};

// The keys and every implementation's filter sets of one key length.
struct LengthState {
  size_t key_length = 0;
  std::unique_ptr<TextKeys> present;     // The out-of-cache filters' keys.
  std::unique_ptr<TextKeys> in_cache;    // The in-cache filter's keys.
  std::unique_ptr<TextKeys> absent;      // kPoolKeys keys of neither filter.
  std::map<std::string, std::unique_ptr<RocksDbReaderSet>> in_cache_sets, out_of_cache_sets;
};

ViaRocksDbConfig& Config() {
  static auto* config = new ViaRocksDbConfig();
  return *config;
}

std::unique_ptr<LengthState>& State() {
  static auto* state = new std::unique_ptr<LengthState>();
  return *state;
}

std::unique_ptr<RocksDbReaderSet> BuildSet(const std::string& impl,
                                           const std::vector<std::string_view>& keys,
                                           size_t min_total_bytes) {
  const ViaRocksDbConfig& config = Config();
  // Checked when registering: both resolve.
  const std::string id = PolicyIdOf(impl, config.bits_per_key).value();
  const std::shared_ptr<const rocksdb::FilterPolicy> policy = PolicyFromString(id).value();
  return RocksDbReaderSet::Create(*policy, keys, min_total_bytes, config.alignment, kPhaseSeed)
      .value();
}

// Every set of key length `length`, built on first use; the previous
// length's sets (and the bench's other big sets) are freed first, so memory
// stays at about total_mib per implementation.
LengthState& StateFor(size_t length) {
  std::unique_ptr<LengthState>& state = State();
  if (state != nullptr && state->key_length == length) return *state;
  state.reset();
  if (Config().release_other_sets) Config().release_other_sets();
  const auto start = std::chrono::steady_clock::now();
  const ViaRocksDbConfig& config = Config();
  auto s = std::make_unique<LengthState>();
  s->key_length = length;
  s->present = std::make_unique<TextKeys>('p', config.filter_keys, length);
  s->in_cache = std::make_unique<TextKeys>('p', config.in_cache_keys, length);
  s->absent = std::make_unique<TextKeys>('a', kPoolKeys, length);
  for (const std::string& impl : config.impls) {
    s->in_cache_sets[impl] = BuildSet(impl, s->in_cache->views(), 0);
    s->out_of_cache_sets[impl] = BuildSet(impl, s->present->views(), config.total_mib << 20);
    const RocksDbReaderSet& set = *s->out_of_cache_sets[impl];
    std::fprintf(stderr, "[micro] ViaRocksDB k%zu %s (%s): %zu filters of %zu bytes = %.0f MiB\n",
                 length, impl.c_str(), PolicyIdOf(impl, config.bits_per_key)->c_str(),
                 set.num_filters(), set.filter_bytes(), set.total_bytes() / 1048576.0);
  }
  std::fprintf(stderr, "[micro] ViaRocksDB k%zu: set up in %.2f s\n", length,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  state = std::move(s);
  return *state;
}

// Present queries ask the first kPoolKeys keys of the filters (all of them if fewer).
size_t PoolSize(const TextKeys& keys) { return std::min(kPoolKeys, keys.size()); }

// One key per query through FilterBitsReader::MayMatch(const Slice&), each
// against a random filter of the set (the in-cache set has one).
void BM_Single(benchmark::State& state, const std::string& impl, size_t length,
               bool in_cache, bool present) {
  LengthState& s = StateFor(length);
  RocksDbReaderSet& set = *(in_cache ? s.in_cache_sets : s.out_of_cache_sets).at(impl);
  const TextKeys& keys = present ? (in_cache ? *s.in_cache : *s.present) : *s.absent;
  const size_t pool = PoolSize(keys);
  BenchRng rng;
  size_t matches = 0;
  for (auto _ : state) {
    const uint64_t r = rng.Next();
    rocksdb::FilterBitsReader& reader = set.reader(BenchRng::BelowFrom(r, set.num_filters()));
    matches += reader.MayMatch(keys.slice(BenchRng::BelowFrom(r << 32, pool)));
  }
  SetPerKey(state, 1, matches);
}

// kBatch consecutive pool keys through MayMatch(num_keys, Slice**, bool*),
// as MultiGet asks a filter, against a random filter of the set.
void BM_Batch(benchmark::State& state, const std::string& impl, size_t length, bool in_cache,
              bool present) {
  LengthState& s = StateFor(length);
  RocksDbReaderSet& set = *(in_cache ? s.in_cache_sets : s.out_of_cache_sets).at(impl);
  TextKeys& keys = present ? (in_cache ? *s.in_cache : *s.present) : *s.absent;
  const size_t pool = PoolSize(keys);
  BenchRng rng;
  bool out[kBatch];
  size_t matches = 0;
  for (auto _ : state) {
    rocksdb::FilterBitsReader& reader = set.reader(rng.Below(set.num_filters()));
    reader.MayMatch(static_cast<int>(kBatch), keys.pointers(rng.Below(pool - kBatch + 1)), out);
    for (size_t i = 0; i < kBatch; ++i) matches += out[i];
  }
  SetPerKey(state, kBatch, matches);
}

absl::Status CheckConfig(const ViaRocksDbConfig& config) {
  for (const std::string& impl : config.impls) {
    absl::StatusOr<std::string> id = PolicyIdOf(impl, config.bits_per_key);
    if (!id.ok()) return absl::InvalidArgumentError(id.status().message());
    absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> policy = PolicyFromString(*id);
    if (!policy.ok()) return policy.status();
  }
  for (size_t length : config.key_lengths) {
    if (length < kMinKeyLength || length > kMaxKeyLength) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "key length %d is outside [%d, %d]", length, kMinKeyLength, kMaxKeyLength));
    }
    const size_t most = std::max(config.filter_keys, config.in_cache_keys);
    if (most > ValuesOf(length)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "key length %d holds only %d distinct keys, fewer than %d", length,
          ValuesOf(length), most));
    }
  }
  if (config.filter_keys < kBatch || config.in_cache_keys < kBatch) {
    return absl::InvalidArgumentError(
        absl::StrFormat("filters need at least %d keys (a batch)", kBatch));
  }
  if (config.alignment == 0 || (config.alignment & (config.alignment - 1)) != 0 ||
      config.alignment > 64) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "filter alignment %d is not a power of two from 1 to 64", config.alignment));
  }
  if (config.rounds < 1) {
    return absl::InvalidArgumentError(absl::StrFormat("rounds %d is below 1", config.rounds));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::string> PolicyIdOf(const std::string& impl, double bits_per_key) {
  if (impl == kFastLocalBloomImpl) return absl::StrFormat("bloomfilter:%g:false", bits_per_key);
  std::string id;
  ForEachEncoding([&](auto encoding) {
    const std::string_view format = decltype(encoding)::kInfo.name;
    if (impl == OurImplName(format)) {
      id = absl::StrFormat("sstfilter.bloom:%g:%s", bits_per_key, format);
    }
  });
  if (id.empty()) {
    return absl::NotFoundError(absl::StrFormat(
        "'%s' has no RocksDB option string (ours and %s have)", impl, kFastLocalBloomImpl));
  }
  return id;
}

absl::StatusOr<std::string> RegisterViaRocksDbCases(const ViaRocksDbConfig& config) {
  if (absl::Status s = CheckConfig(config); !s.ok()) return s;
  Config() = config;
  struct Case {
    const char* name;
    bool batch, in_cache, present;
  };
  constexpr Case kCases[] = {
      {"InCache/absent", false, true, false},
      {"InCache/present", false, true, true},
      {"InCache/batch32/absent", true, true, false},
      {"OutOfCache/absent", false, false, false},
      {"OutOfCache/present", false, false, true},
      {"OutOfCache/batch32/absent", true, false, false},
      {"OutOfCache/batch32/present", true, false, true},
  };
  for (size_t length : config.key_lengths) {
    for (int round = 0; round < config.rounds; ++round) {
      for (const Case& c : kCases) {
        for (const std::string& impl : config.impls) {
          const std::string name =
              absl::StrFormat("%sk%d/%s/%s", kViaRocksDbPrefix, length, c.name, impl);
          benchmark::RegisterBenchmark(name.c_str(), c.batch ? BM_Batch : BM_Single, impl,
                                       length, c.in_cache, c.present)
              ->MinTime(config.min_time);
        }
      }
    }
  }
  return absl::StrFormat(
      "ViaRocksDB: %s through FilterBitsReader; text keys of %s bytes; filters at %d-byte "
      "alignment; in cache: one filter of %d keys; out of cache: filters of %d keys, >= %d MiB "
      "each; fastest of %d interleaved rounds",
      absl::StrJoin(config.impls, ", "), absl::StrJoin(config.key_lengths, ","),
      config.alignment, config.in_cache_keys, config.filter_keys, config.total_mib,
      config.rounds);
}

void ReleaseViaRocksDbSets() { State().reset(); }

}  // namespace sstfilter::bench
