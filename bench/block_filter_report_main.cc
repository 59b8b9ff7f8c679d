// sstfilter_block_filter_report: our encodings at the sizes of LevelDB's
// per-block filters.
//
// Part 1 writes a LevelDB database (libleveldb, default options, 4 KB
// blocks) of 16-byte keys with values of each --value_sizes size into a
// temporary directory, through a FilterPolicy wrapper around LevelDB's own
// NewBloomFilterPolicy(10) that records n of every CreateFilter call: the
// keys per filter LevelDB really produces. Part 2 builds many filters of n
// keys with every --filters implementation and prints bytes per key (the
// whole filter, trailer included) and the FP rate measured over absent keys.
//
//   sstfilter_block_filter_report [--value_sizes=16,100,1000]
//       [--bits_per_key=6,10,16] [--num_keys=...] [--queries=...]
//       [--filters=libleveldb,ours]  (ours: each of our encodings)
#include <algorithm>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "bench/filter_impls.h"
#include "bench/key_shapes.h"
#include "leveldb/db.h"
#include "leveldb/filter_policy.h"
#include "leveldb/write_batch.h"

ABSL_FLAG(std::vector<std::string>, value_sizes, (std::vector<std::string>{"16", "100", "1000"}),
          "Value sizes (bytes) of the LevelDB databases written in part 1.");
ABSL_FLAG(size_t, db_keys, 100000, "Keys written per database in part 1.");
ABSL_FLAG(std::vector<std::string>, bits_per_key, (std::vector<std::string>{"6", "10", "16"}),
          "Bits/key settings.");
ABSL_FLAG(std::vector<std::string>, num_keys,
          (std::vector<std::string>{"1", "2", "4", "8", "12", "16", "20", "24", "32", "40",
                                    "48", "56", "64", "80", "96", "112", "128", "160", "200",
                                    "300", "400", "600"}),
          "Keys per filter in part 2 (the measured per-block n are added).");
ABSL_FLAG(size_t, queries, 2000000, "Absent keys asked per (n, bits/key, filter).");
ABSL_FLAG(std::string, filters, "libleveldb,ours",
          "Implementations compared (bench/filter_impls.h names; ours: each of our encodings).");

namespace sstfilter::bench {
namespace {

// LevelDB's own Bloom policy, recording how many keys each filter holds.
class CountingPolicy : public leveldb::FilterPolicy {
 public:
  explicit CountingPolicy(int bits_per_key) : inner_(leveldb::NewBloomFilterPolicy(bits_per_key)) {}
  const char* Name() const override { return inner_->Name(); }
  void CreateFilter(const leveldb::Slice* keys, int n, std::string* dst) const override {
    counts_.push_back(n);
    inner_->CreateFilter(keys, n, dst);
  }
  bool KeyMayMatch(const leveldb::Slice& key, const leveldb::Slice& filter) const override {
    return inner_->KeyMayMatch(key, filter);
  }
  std::vector<int>& counts() const { return counts_; }

 private:
  std::unique_ptr<const leveldb::FilterPolicy> inner_;
  mutable std::vector<int> counts_;  // LevelDB builds tables on one thread.
};

// Keys per CreateFilter call of a fresh database of db_keys random 16-byte
// keys with random values of value_size bytes, after a full compaction.
std::vector<int> MeasureKeysPerFilter(size_t value_size, size_t db_keys) {
  std::string dir_template =
      (std::filesystem::temp_directory_path() / "sstfilter_block_sizes_XXXXXX").string();
  const char* dir = mkdtemp(dir_template.data());
  if (dir == nullptr) {
    std::perror("mkdtemp");
    std::exit(1);
  }
  CountingPolicy policy(10);
  leveldb::Options options;
  options.create_if_missing = true;
  options.filter_policy = &policy;
  leveldb::DB* raw_db = nullptr;
  leveldb::Status s = leveldb::DB::Open(options, dir, &raw_db);
  if (!s.ok()) {
    std::fprintf(stderr, "open %s: %s\n", dir, s.ToString().c_str());
    std::exit(1);
  }
  std::unique_ptr<leveldb::DB> db(raw_db);
  std::string key, value(value_size, '\0');
  for (size_t i = 0; i < db_keys; ++i) {
    key.clear();
    AppendKey(KeyShape::kRandom16, i, &key);
    for (size_t j = 0; j < value_size; j += 8) {
      const uint64_t r = Mix64(i * 1315423911u + j);
      std::memcpy(value.data() + j, &r, std::min<size_t>(8, value_size - j));
    }
    db->Put(leveldb::WriteOptions(), key, value);
  }
  // Only tables written by this compaction count: flushes of the memtable
  // (level-0 tables) see the same blocks but would count keys twice.
  policy.counts().clear();
  db->CompactRange(nullptr, nullptr);
  std::vector<int> counts = policy.counts();
  db.reset();
  leveldb::DestroyDB(dir, leveldb::Options());
  std::sort(counts.begin(), counts.end());
  return counts;
}

void PrintKeysPerFilter(const std::vector<std::string>& value_sizes, size_t db_keys,
                        std::vector<size_t>* medians) {
  std::printf("## Keys per LevelDB filter (16-byte keys, block_size 4096, %zu keys)\n\n",
              db_keys);
  std::printf("| value bytes | filters | min | p10 | median | mean | p90 | max |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (const std::string& v : value_sizes) {
    const std::vector<int> c = MeasureKeysPerFilter(std::stoul(v), db_keys);
    if (c.empty()) continue;
    const auto at = [&c](double q) { return c[static_cast<size_t>(q * (c.size() - 1))]; };
    const double mean = std::accumulate(c.begin(), c.end(), 0.0) / c.size();
    std::printf("| %s | %zu | %d | %d | %d | %.1f | %d | %d |\n", v.c_str(), c.size(), c.front(),
                at(0.1), at(0.5), mean, at(0.9), c.back());
    medians->push_back(static_cast<size_t>(at(0.5)));
  }
  std::printf("\n");
}

struct Cost {
  double bytes_per_key = 0;
  double fp_rate = 0;
  double expected = 0;
  size_t false_negatives = 0;
};

// Filters of n keys each (different keys per filter), queries spread over
// them; every present key is asked too.
Cost MeasureAt(const FilterImpl& impl, double bits_per_key, size_t n, size_t queries) {
  const size_t per_filter = 200;
  const size_t num_filters = std::max<size_t>(1, queries / per_filter);
  std::unique_ptr<BenchFilter> filter = impl.make(bits_per_key);
  Cost cost;
  size_t bytes = 0, fps = 0;
  std::string built;
  const uint64_t absent_base = uint64_t{1} << 40;
  for (size_t f = 0; f < num_filters; ++f) {
    const KeySet present(KeyShape::kRandom16, f * n, n);
    const KeySet absent(KeyShape::kRandom16, absent_base + f * per_filter, per_filter);
    filter->Build(present.keys(), &built);
    bytes += built.size();
    std::unique_ptr<BenchFilterReader> reader = filter->NewReader(built);
    for (std::string_view k : present.keys()) cost.false_negatives += !reader->MayMatch(k);
    for (std::string_view k : absent.keys()) fps += reader->MayMatch(k);
    if (f == 0) cost.expected = filter->ExpectedFpRate(n, built.size());
  }
  cost.bytes_per_key = static_cast<double>(bytes) / static_cast<double>(num_filters * n);
  cost.fp_rate = static_cast<double>(fps) / static_cast<double>(num_filters * per_filter);
  return cost;
}

int Main() {
  std::vector<size_t> ns;
  PrintKeysPerFilter(absl::GetFlag(FLAGS_value_sizes), absl::GetFlag(FLAGS_db_keys), &ns);
  for (const std::string& n : absl::GetFlag(FLAGS_num_keys)) ns.push_back(std::stoul(n));
  std::sort(ns.begin(), ns.end());
  ns.erase(std::unique(ns.begin(), ns.end()), ns.end());
  std::vector<std::string> names;
  for (absl::string_view name : absl::StrSplit(absl::GetFlag(FLAGS_filters), ',')) {
    if (name == "ours") {
      for (const std::string& ours : OurImplNames()) names.push_back(ours);
    } else {
      names.emplace_back(name);
    }
  }
  absl::StatusOr<std::vector<FilterImpl>> impls = SelectFilterImpls(absl::StrJoin(names, ","));
  if (!impls.ok()) {
    std::fprintf(stderr, "%s\n", impls.status().ToString().c_str());
    return 1;
  }
  for (const std::string& b : absl::GetFlag(FLAGS_bits_per_key)) {
    const double bits_per_key = std::stod(b);
    std::printf("## %g bits/key: bytes per key (trailer included) / FP rate measured"
                " (model); ratio = bytes vs %s\n\n",
                bits_per_key, impls->front().name.c_str());
    std::vector<std::string> header = {"n"};
    for (const FilterImpl& impl : *impls) header.push_back(impl.name);
    std::printf("| %s |\n|%s\n", absl::StrJoin(header, " | ").c_str(),
                absl::StrJoin(std::vector<std::string>(header.size(), "---|"), "").c_str());
    for (size_t n : ns) {
      std::vector<std::string> row = {absl::StrFormat("%d", n)};
      double reference = 0;
      for (const FilterImpl& impl : *impls) {
        const Cost c = MeasureAt(impl, bits_per_key, n, absl::GetFlag(FLAGS_queries));
        if (reference == 0) reference = c.bytes_per_key;
        row.push_back(absl::StrFormat("%.2f B (%.2fx) / %.3f%% (%.3f%%)%s", c.bytes_per_key,
                                      c.bytes_per_key / reference, 100 * c.fp_rate,
                                      100 * c.expected,
                                      c.false_negatives ? " FALSE NEGATIVES" : ""));
      }
      std::printf("| %s |\n", absl::StrJoin(row, " | ").c_str());
      std::fflush(stdout);
    }
    std::printf("\n");
  }
  return 0;
}

}  // namespace
}  // namespace sstfilter::bench

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  return sstfilter::bench::Main();
}
