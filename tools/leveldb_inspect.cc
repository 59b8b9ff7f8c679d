#include "tools/leveldb_inspect.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <random>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "inspect/leveldb_table.h"
#include "leveldb/env.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/table.h"
#include "filter/filter_options.h"
#include "filter/encodings.h"

namespace sstfilter {
namespace {

// What iterating the table with libleveldb tells: its keys and where they are.
struct TableScan {
  std::vector<uint64_t> keys_per_block;  // By index entry.
  absl::flat_hash_set<std::string> user_keys;
  uint64_t entries = 0;
  uint64_t user_key_bytes = 0;
};

// Opens path with leveldb::Table and iterates every entry, mapping each to
// its data block: the first block whose index key is >= the entry's key.
// DataLoss for anything libleveldb reports (bad checksums, bad blocks) and
// for keys the index does not account for.
absl::StatusOr<TableScan> ScanTable(const std::string& path, const LevelDbTable& table,
                                    bool verify_checksums) {
  leveldb::Env* env = leveldb::Env::Default();
  uint64_t size = 0;
  leveldb::RandomAccessFile* raw_file = nullptr;
  leveldb::Status s = env->GetFileSize(path, &size);
  if (s.ok()) s = env->NewRandomAccessFile(path, &raw_file);
  if (!s.ok()) return absl::DataLossError("LevelDB cannot read it: " + s.ToString());
  const std::unique_ptr<leveldb::RandomAccessFile> file(raw_file);
  leveldb::Options options;  // No filter policy: our parser reads the filter.
  options.paranoid_checks = verify_checksums;  // Checks the index block's checksum.
  leveldb::Table* raw_table = nullptr;
  s = leveldb::Table::Open(options, file.get(), size, &raw_table);
  if (!s.ok()) return absl::DataLossError("LevelDB cannot open it as a table: " + s.ToString());
  const std::unique_ptr<leveldb::Table> ldb_table(raw_table);
  leveldb::ReadOptions read;
  read.verify_checksums = verify_checksums;
  read.fill_cache = false;
  const std::unique_ptr<leveldb::Iterator> it(ldb_table->NewIterator(read));

  TableScan scan;
  scan.keys_per_block.assign(table.index.size(), 0);
  size_t block = 0;
  std::string previous;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const std::string_view key(it->key().data(), it->key().size());
    if (key.size() < 8) {
      return absl::DataLossError(absl::StrFormat(
          "entry %d: key of %d bytes is too short for an internal key", scan.entries,
          key.size()));
    }
    if (scan.entries > 0 && CompareInternalKeys(previous, key) >= 0) {
      return absl::DataLossError(absl::StrFormat("entry %d: keys are out of order", scan.entries));
    }
    while (block < table.index.size() && CompareInternalKeys(key, table.index[block].key) > 0) {
      ++block;
    }
    if (block == table.index.size()) {
      return absl::DataLossError(absl::StrFormat(
          "entry %d: key is after the index's last key", scan.entries));
    }
    ++scan.keys_per_block[block];
    ++scan.entries;
    scan.user_key_bytes += key.size() - 8;
    scan.user_keys.insert(std::string(UserKeyOf(key)));
    previous.assign(key);
  }
  if (!it->status().ok()) {
    return absl::DataLossError("LevelDB reading the data blocks: " + it->status().ToString());
  }
  for (size_t i = 0; i < scan.keys_per_block.size(); ++i) {
    if (scan.keys_per_block[i] == 0) {
      return absl::DataLossError(absl::StrFormat(
          "data block %d (offset %d) holds no key the index leads to", i,
          table.index[i].handle.offset));
    }
  }
  return scan;
}

// Whether sstfilter reads filters of this policy: LevelDB's built-in one
// (our LevelDB encoding) and sstfilter's own ("sstfilter.bloom...").
bool IsReadablePolicy(std::string_view policy) {
  const std::string_view ours = kBloomPolicyName;
  return policy == kLevelDbBuiltinPolicyName || policy.substr(0, ours.size()) == ours;
}

bool FilterMayMatch(std::string_view filter, std::string_view key) {
  return VisitEncodingOf(filter, [&](auto encoding) {
    return typename decltype(encoding)::Reader(filter).MayMatch(key);
  });
}

// LevelDB's answer to "may user_key be in the table?": false when no data
// block can hold it or the filter of each block that could says no.
bool TableMayMatch(const LevelDbTable& table, std::string_view user_key) {
  for (size_t b : CandidateBlocks(table, user_key)) {
    const uint64_t f = table.filter->FilterIndexOf(table.index[b].handle.offset);
    if (FilterMayMatch(table.filter->filter(f), user_key)) return true;
  }
  return false;
}

struct MinMedianMax {
  uint64_t min = 0, median = 0, max = 0;
};
MinMedianMax Summarise(std::vector<uint64_t> values) {
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  return {values.front(), values[values.size() / 2], values.back()};
}

// Keys of each filter: those of the data blocks starting in its window.
std::vector<uint64_t> KeysPerFilter(const LevelDbTable& table, const TableScan& scan) {
  std::vector<uint64_t> keys(table.filter->num_filters(), 0);
  for (size_t b = 0; b < table.index.size(); ++b) {
    keys[table.filter->FilterIndexOf(table.index[b].handle.offset)] += scan.keys_per_block[b];
  }
  return keys;
}

void PrintTable(const std::string& path, const LevelDbTable& table, const TableScan& scan,
                bool verify_checksums) {
  absl::PrintF("%-22s %s\n", "file", path);
  absl::PrintF("%-22s LevelDB (legacy footer, checksum crc32c, %s)\n", "table",
               verify_checksums ? "verified" : "not verified");
  absl::PrintF("%-22s %d\n", "entries", scan.entries);
  if (scan.entries > 0) {
    absl::PrintF("%-22s %.1f bytes average\n", "user key length",
                 static_cast<double>(scan.user_key_bytes) / static_cast<double>(scan.entries));
  }
  absl::PrintF("%-22s %d (index block %s)\n", "data blocks", table.index.size(),
               table.index_compression == 0 ? "uncompressed" : "Snappy-compressed");
  absl::PrintF("%-22s %s\n", "filter policy",
               table.filter_policy.empty() ? "(none)" : table.filter_policy);
}

// Prints the filter block; returns the expected FP rate, or why the filter
// cannot be queried.
absl::StatusOr<double> PrintFilter(const LevelDbTable& table, const TableScan& scan) {
  if (!table.filter.has_value()) {
    absl::PrintF("%-22s none\n", "filter");
    return absl::FailedPreconditionError("the table has no filter");
  }
  const LevelDbFilterBlock& block = *table.filter;
  absl::PrintF("%-22s per-block: %d filters, one per %d bytes of data-block offsets "
               "(lg(base) %d; meta block 'filter.%s', %d bytes)\n",
               "filter", block.num_filters(), uint64_t{1} << block.base_lg, block.base_lg,
               table.filter_policy, table.filter_handle.size);
  const std::vector<uint64_t> keys = KeysPerFilter(table, scan);
  std::vector<uint64_t> used_keys, used_bytes;
  for (size_t f = 0; f < keys.size(); ++f) {
    if (keys[f] == 0) continue;
    used_keys.push_back(keys[f]);
    used_bytes.push_back(block.filter(f).size());
  }
  absl::PrintF("%-22s %d (%d empty: no data block starts in their window)\n", "filters in use",
               used_keys.size(), keys.size() - used_keys.size());
  absl::PrintF("%-22s %d (offset array and tail excluded)\n", "filter bytes",
               block.FilterBytes());
  const MinMedianMax b = Summarise(used_bytes), k = Summarise(used_keys);
  absl::PrintF("%-22s min %d, median %d, max %d\n", "bytes per filter", b.min, b.median, b.max);
  absl::PrintF("%-22s min %d, median %d, max %d\n", "keys per filter", k.min, k.median, k.max);
  if (scan.entries > 0) {
    absl::PrintF("%-22s %.3f\n", "bits/key spent",
                 8.0 * static_cast<double>(block.FilterBytes()) /
                     static_cast<double>(scan.entries));
  }
  if (!IsReadablePolicy(table.filter_policy)) {
    absl::PrintF("%-22s unknown: policy '%s' is neither LevelDB's built-in nor sstfilter's\n",
                 "encoding", table.filter_policy);
    return absl::FailedPreconditionError(absl::StrFormat(
        "the filter is '%s', neither '%s' nor sstfilter's '%s'", table.filter_policy,
        kLevelDbBuiltinPolicyName, kBloomPolicyName));
  }
  // Encodings by filters in use, in file order; the expected FP rate of an
  // absent key weights each filter by its keys (absent keys are taken to
  // spread over the key space as present ones do).
  std::vector<std::pair<std::string, size_t>> groups;
  double fp_weighted = 0;
  for (size_t f = 0; f < keys.size(); ++f) {
    if (keys[f] == 0) continue;
    const FilterDescription d = DescribeFilter(block.filter(f));
    fp_weighted += static_cast<double>(keys[f]) * d.ExpectedFpRate(static_cast<double>(keys[f]));
    if (groups.empty() || groups.back().first != d.name) groups.emplace_back(d.name, 0);
    ++groups.back().second;
  }
  for (size_t i = 0; i < groups.size(); ++i) {
    absl::PrintF("%-22s %s (%d filter%s)\n", i == 0 ? "encoding" : "", groups[i].first,
                 groups[i].second, groups[i].second == 1 ? "" : "s");
  }
  const double expected =
      scan.entries == 0 ? 0.0 : fp_weighted / static_cast<double>(scan.entries);
  absl::PrintF("%-22s %.6g\n", "expected fp rate", expected);
  return expected;
}

// n random keys of the table's average user key length, none of them in
// the table (every user key is known from the scan, so absence is exact).
absl::StatusOr<std::vector<std::string>> AbsentKeys(const TableScan& scan, size_t n,
                                                    uint64_t seed) {
  const double average = scan.entries == 0 ? 16.0
                                           : static_cast<double>(scan.user_key_bytes) /
                                                 static_cast<double>(scan.entries);
  const auto length = static_cast<size_t>(std::max(1.0, std::round(average)));
  return DrawAbsentKeys(n, length, seed,
                        [&](const std::string& key) { return scan.user_keys.contains(key); });
}

// Each filter's FP rate by its encoding's model, for the keys it holds.
std::vector<double> ExpectedFpPerFilter(const LevelDbTable& table, const TableScan& scan) {
  const std::vector<uint64_t> keys = KeysPerFilter(table, scan);
  std::vector<double> fp(keys.size(), 0.0);
  for (size_t f = 0; f < keys.size(); ++f) {
    fp[f] = DescribeFilter(table.filter->filter(f)).ExpectedFpRate(static_cast<double>(keys[f]));
  }
  return fp;
}

int Answer(const LevelDbTable& table, const TableScan& scan, const Questions& q, uint64_t seed,
           bool verify_checksums) {
  if (!q.keys.empty() && !verify_checksums) {
    absl::PrintF("%-22s the filter's bytes were not verified (--verify_checksums=false): a "
                 "damaged filter can answer \"absent\" for a present key\n",
                 "warning");
  }
  for (const std::string& key : q.keys) {
    const bool in_range = !CandidateBlocks(table, key).empty();
    absl::PrintF("key \"%s\" (%d bytes): %s\n", absl::CHexEscape(key), key.size(),
                 TableMayMatch(table, key) ? "may be present"
                 : in_range                ? "absent"
                                           : "absent (after the table's last key)");
  }
  if (q.sample == 0) return 0;
  while (seed == 0) seed = (uint64_t{std::random_device()()} << 32) | std::random_device()();
  absl::StatusOr<std::vector<std::string>> absent =
      AbsentKeys(scan, static_cast<size_t>(q.sample), seed);
  if (!absent.ok()) return Fail(kExitBadFile, std::string(absent.status().message()));
  // The sample's expected FP rate is that of the filters its keys reach:
  // random keys can crowd into few blocks (all keys below the table's first
  // key go to block 0), which the table-wide rate would not reflect.
  const std::vector<double> filter_fp = ExpectedFpPerFilter(table, scan);
  size_t asked = 0, positives = 0;
  double expected_sum = 0;
  for (const std::string& key : *absent) {
    const std::vector<size_t> blocks = CandidateBlocks(table, key);
    if (blocks.empty()) continue;  // No block, no filter asked.
    ++asked;
    expected_sum += filter_fp[table.filter->FilterIndexOf(table.index[blocks[0]].handle.offset)];
    positives += TableMayMatch(table, key) ? 1 : 0;
  }
  const double expected_fp = asked == 0 ? 0.0 : expected_sum / static_cast<double>(asked);
  absl::PrintF("%-22s %d random keys of %d bytes (seed %d)\n", "absent-key sample",
               absent->size(), absent->front().size(), seed);
  absl::PrintF("%-22s checked against all %d user keys of the table\n", "absence",
               scan.user_keys.size());
  absl::PrintF("%-22s %d (after the table's last key: absent by the index alone)\n",
               "past the last key", absent->size() - asked);
  absl::PrintF("%-22s %.6g (%d of the %d keys that reached a filter; expected %.6g for "
               "the filters they reached)\n",
               "measured fp rate",
               asked == 0 ? 0.0 : static_cast<double>(positives) / static_cast<double>(asked),
               positives, asked, expected_fp);
  return 0;
}

}  // namespace

int InspectLevelDbTable(const std::string& path, const SstSource& source, const Questions& q,
                        uint64_t seed, bool verify_checksums) {
  absl::StatusOr<LevelDbTable> table = ReadLevelDbTable(source, verify_checksums);
  if (!table.ok()) {
    return Fail(kExitBadFile,
                absl::StrFormat("%s: damaged LevelDB table: %s", path, table.status().message()));
  }
  absl::StatusOr<TableScan> scan = ScanTable(path, *table, verify_checksums);
  if (!scan.ok()) {
    return Fail(kExitBadFile,
                absl::StrFormat("%s: damaged LevelDB table: %s", path, scan.status().message()));
  }
  PrintTable(path, *table, *scan, verify_checksums);
  absl::StatusOr<double> expected_fp = PrintFilter(*table, *scan);
  if (!q.any()) return 0;
  if (!expected_fp.ok()) {
    return Fail(kExitUnanswered, absl::StrFormat("cannot answer --key/--sample_absent: %s",
                                                 expected_fp.status().message()));
  }
  return Answer(*table, *scan, q, seed, verify_checksums);
}

}  // namespace sstfilter
