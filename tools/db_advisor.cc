#include "tools/db_advisor.h"

#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <vector>

#include "absl/strings/str_format.h"
#include "filter/encodings.h"
#include "filter/filter_options.h"
#include "filter/fp_target.h"
#include "filter/level_allocation.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/utilities/options_util.h"
#include "table/rocksdb/open_db.h"
#include "table/rocksdb/registration.h"
#include "table/sst/sst_filter_block.h"
#include "table/sst/sst_source.h"
#include "tools/builtin_filter.h"
#include "tools/child_guard.h"
#include "tools/sst_tool.h"
#include "tools/tree_projection.h"
#include "tools/tree_runs.h"

namespace sstfilter {

namespace {

// A filter's bytes as the advisor models them.
FilterDescription Describe(const std::string& compatibility_name, const std::string& bytes) {
  if (compatibility_name == kBloomPolicyName) return DescribeFilter(bytes);
  if (compatibility_name == kRocksDbBuiltinFilterName) return DescribeRocksDbBuiltinFilter(bytes);
  return FilterDescription::Fixed(FilterState::kMatchEverything,
                                  absl::StrFormat("unknown '%s'", compatibility_name));
}

// The encoding optimize_levels would write in place of these bytes.
EncodingId AlternativeOf(const std::string& compatibility_name, const std::string& bytes) {
  if (compatibility_name == kBloomPolicyName) {
    return VisitEncodingOf(bytes, [](auto e) {
      using E = decltype(e);
      if constexpr (std::is_same_v<E, UnrecognisedEncoding>) {
        return EncodingId::kCacheLocal;
      } else {
        return IdOf<E>();
      }
    });
  }
  return IsRocksDbRibbonFilter(bytes) ? EncodingId::kCompact : EncodingId::kCacheLocal;
}

// The table's filters: bytes, kind and FP (partitions: the mean, each
// holding a share of the entries proportional to its bytes).
absl::StatusOr<TableFilters> ReadTable(const std::string& path,
                                       const rocksdb::TableProperties& props, bool verify) {
  absl::StatusOr<std::unique_ptr<SstSource>> source = OpenSstFileSource(path);
  if (!source.ok()) return source.status();
  SstIndexFormat index_format;
  index_format.key_is_user_key = props.index_key_is_user_key != 0;
  index_format.value_delta_encoded = props.index_value_is_delta_encoded != 0;
  absl::StatusOr<SstFilter> filter = ReadSstFilter(**source, index_format, verify);
  if (!filter.ok()) {
    return absl::DataLossError(
        absl::StrFormat("%s: reading the filter: %s", path, filter.status().message()));
  }
  TableFilters t;
  t.keys = props.num_filter_entries > 0 ? props.num_filter_entries : props.num_entries;
  t.filter_bytes = filter->FilterBytes();
  if (filter->partitions.empty()) {
    t.kind = filter->layout == SstFilterLayout::kBlockBased ? "obsolete block-based" : "none";
    return t;
  }
  double fp_sum = 0;
  for (const SstFilterPartition& p : filter->partitions) {
    const FilterDescription d = Describe(filter->compatibility_name, p.contents);
    const double share = t.filter_bytes ? static_cast<double>(p.contents.size()) /
                                              static_cast<double>(t.filter_bytes)
                                        : 0;
    fp_sum += d.ExpectedFpRate(share * static_cast<double>(t.keys));
    if (t.kind.empty()) {
      t.kind = d.name;
      t.encoding = AlternativeOf(filter->compatibility_name, p.contents);
    }
  }
  t.fp_rate = fp_sum / static_cast<double>(filter->partitions.size());
  if (filter->layout == SstFilterLayout::kPartitioned) t.kind += ", partitioned";
  return t;
}

std::string Basename(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

// The bits_per_key setting of `encoding` that spends `bits` per key.
double SettingSpending(EncodingId encoding, double bits) {
  double lo = 0.5, hi = 100;
  for (int i = 0; i < 40; ++i) {
    const double mid = (lo + hi) / 2;
    (EncodingRunModel(encoding, kNominalFilterKeys, mid).uniform_bits < bits ? lo : hi) = mid;
  }
  return hi;
}

// The filter kind of most of the runs' keys, noting any others.
std::string KindOf(const std::vector<TreeRun>& runs, size_t begin, size_t end) {
  std::map<std::string, uint64_t> keys;
  for (size_t i = begin; i < end; ++i) {
    for (const TableFilters& t : runs[i].tables) keys[t.kind] += t.keys;
  }
  const auto most = std::max_element(keys.begin(), keys.end(), [](const auto& a, const auto& b) {
    return a.second < b.second;
  });
  if (keys.size() <= 1) return most->first;
  return absl::StrFormat("%s (+%d other kinds)", most->first, keys.size() - 1);
}

void PrintRuns(const std::string& cf, const std::vector<TreeRun>& runs, bool bytewise) {
  uint64_t keys = 0, bytes = 0, tables = 0;
  for (const TreeRun& r : runs) {
    keys += r.keys(), bytes += r.filter_bytes(), tables += r.tables.size();
  }
  absl::PrintF("column family '%s': %d tables, %d keys, %d filter bytes (%.2f bits/key)\n", cf,
               tables, keys, bytes, keys ? 8.0 * bytes / keys : 0.0);
  absl::PrintF("%-5s %6s %10s %12s %8s  %-36s %9s %6s %10s\n", "level", "tables", "keys",
               "filter bytes", "bits/key", "filter", "fp", "reach", "blocks/Get");
  std::vector<RunToday> today;
  for (size_t i = 0; i < runs.size();) {
    // L0's tables share a row; each is a run of its own.
    size_t end = i + 1;
    while (runs[i].level == 0 && end < runs.size() && runs[end].level == 0) ++end;
    uint64_t n = 0, b = 0, count = 0;
    double reach = 0, reads = 0, fp_weighted = 0;
    for (size_t j = i; j < end; ++j) {
      const TreeRun& r = runs[j];
      n += r.keys(), b += r.filter_bytes(), count += r.tables.size();
      reach += r.reach, reads += r.reach * r.fp_rate();
      fp_weighted += static_cast<double>(r.keys()) * r.fp_rate();
      if (r.keys() > 0) {
        today.push_back({static_cast<double>(r.keys()), 8.0 * r.filter_bytes(), r.fp_rate(),
                         r.reach, r.encoding()});
      }
    }
    absl::PrintF("L%-4d %6d %10d %12d %8.2f  %-36s %8.3f%% %6.2f %10.4f\n", runs[i].level, count, n,
                 b, n ? 8.0 * b / n : 0.0, KindOf(runs, i, end),
                 n ? 100 * fp_weighted / n : 0.0, reach, reads);
    i = end;
  }
  if (today.empty()) return;
  const TreeProjection p = ProjectOptimizeLevels(today);
  absl::PrintF("%-5s %6d %10d %12d %8.2f  %-36s %9s %6s %10.4f\n", "all", tables, keys, bytes,
               keys ? 8.0 * bytes / keys : 0.0, "", "", "", p.reads_today);
  const EncodingId bottom = today.back().encoding;
  absl::PrintF(
      "optimize_levels at these filter bytes (sstfilter.bloom:%.3g:%s:optimize_levels): "
      "%.4f data blocks per absent Get, %.2fx fewer\n",
      SettingSpending(bottom, keys ? 8.0 * bytes / keys : 10), EncodingName(bottom),
      p.reads_same_bytes, p.reads_same_bytes > 0 ? p.reads_today / p.reads_same_bytes : 0);
  if (p.bytes_for_same_reads.has_value()) {
    absl::PrintF("optimize_levels at today's %.4f blocks per absent Get: %.3fx the filter bytes\n",
                 p.reads_today, *p.bytes_for_same_reads);
  }
  absl::PrintF(
      "(fp: the filters' modelled FP; reach: the share of absent keys whose key falls in the "
      "level's tables' ranges, per L0 table summed; blocks/Get: data blocks an absent-key Get "
      "reads for the level's false positives, from the block cache or the device)\n");
  if (!bytewise) {
    absl::PrintF("note: the comparator is not bytewise: every run's reach is taken as 1\n");
  }
}

// Every column family's report; the exit status.
int Report(rocksdb::DB& db, const std::vector<rocksdb::ColumnFamilyHandle*>& handles,
           const std::vector<rocksdb::ColumnFamilyDescriptor>& families, bool verify) {
  std::vector<rocksdb::LiveFileMetaData> files;
  db.GetLiveFilesMetaData(&files);
  for (size_t i = 0; i < handles.size(); ++i) {
    rocksdb::TablePropertiesCollection props;
    if (rocksdb::Status s = db.GetPropertiesOfAllTables(handles[i], &props); !s.ok()) {
      return Fail(kExitBadFile, "reading the tables' properties: " + s.ToString());
    }
    std::map<std::string, std::shared_ptr<const rocksdb::TableProperties>> by_name;
    for (const auto& [path, p] : props) by_name[Basename(path)] = p;
    std::vector<TableFilters> tables;
    for (const rocksdb::LiveFileMetaData& f : files) {
      if (f.column_family_name != families[i].name) continue;
      const auto p = by_name.find(Basename(f.name));
      if (p == by_name.end() || p->second == nullptr) {
        return Fail(kExitBadFile, absl::StrFormat("%s: no table properties", f.name));
      }
      absl::StatusOr<TableFilters> t = ReadTable(f.db_path + f.name, *p->second, verify);
      if (!t.ok()) return Fail(kExitBadFile, std::string(t.status().message()));
      t->level = f.level;
      t->smallest = f.smallestkey;
      t->largest = f.largestkey;
      tables.push_back(*std::move(t));
    }
    if (tables.empty()) {
      absl::PrintF("column family '%s': no tables\n", families[i].name);
      continue;
    }
    const rocksdb::Comparator* cmp = families[i].options.comparator;
    const bool bytewise =
        cmp == nullptr || std::string(cmp->Name()) == "leveldb.BytewiseComparator";
    PrintRuns(families[i].name, GroupIntoRuns(std::move(tables), bytewise), bytewise);
    if (OutputClosed()) break;  // Nobody reads the rest.
  }
  return 0;
}

}  // namespace

int AdviseDb(const std::string& dir, bool verify_checksums) {
  EnsureRocksDbFilterPoliciesRegistered();
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(dir, error);
  if (status.type() == std::filesystem::file_type::not_found) {
    return Fail(kExitBadFile, "no such directory: " + dir);
  }
  if (error) return Fail(kExitBadFile, absl::StrFormat("%s: %s", dir, error.message()));
  if (status.type() != std::filesystem::file_type::directory) {
    return Fail(kExitBadFile, "not a directory: " + dir);
  }
  rocksdb::ConfigOptions config;
  config.ignore_unknown_options = true;
  rocksdb::DBOptions db_options;
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  if (rocksdb::Status s = rocksdb::LoadLatestOptions(config, dir, &db_options, &families);
      !s.ok()) {
    return Fail(kExitBadFile, absl::StrFormat("--db=%s: not a RocksDB database (no options file "
                                              "read: %s)",
                                              dir, s.ToString()));
  }
  db_options.max_open_files = -1;  // A secondary instance requires it.
  db_options.info_log.reset();
  std::string secondary =
      (std::filesystem::temp_directory_path() / "sstfilter_sst_secondary_XXXXXX").string();
  if (mkdtemp(secondary.data()) == nullptr) {
    return Fail(kExitBadFile, "cannot create a temporary directory");
  }
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  std::unique_ptr<rocksdb::DB> db;
  rocksdb::Status s = OpenDbAsSecondary(db_options, dir, secondary, families, &handles, &db);
  int exit = 0;
  if (!s.ok()) {
    exit = Fail(kExitBadFile, absl::StrFormat("--db=%s: RocksDB cannot open it: %s", dir,
                                              s.ToString()));
  } else {
    exit = Report(*db, handles, families, verify_checksums);
    for (rocksdb::ColumnFamilyHandle* h : handles) db->DestroyColumnFamilyHandle(h);
    db.reset();
  }
  std::error_code ignored;
  std::filesystem::remove_all(secondary, ignored);
  return exit;
}

}  // namespace sstfilter
