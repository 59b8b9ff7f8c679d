#include "tools/live_tables.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <system_error>
#include <thread>
#include <type_traits>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "filter/encodings.h"
#include "filter/filter_options.h"
#include "inspect/sst_filter_block.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/metadata.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/utilities/options_util.h"
#include "table/census/census_tree.h"
#include "table/census/open_db.h"
#include "table/census/policy_registry.h"
#include "table/census/silent_logger.h"
#include "table/census/table_listing_fs.h"
#include "tools/builtin_filter.h"
#include "tools/checked_table.h"

namespace sstfilter {

namespace {

// The read-only instance's table cache: tables are listed, not read through
// it (RocksDB opens a few at start; more would only cost memory).
constexpr int kMaxOpenFiles = 20;

// The most listings of the tables while some listed table is missing (a
// busy DB's compactions keep removing tables, and a listing may still name
// a table its compaction has just removed), the first kFirstPause apart,
// each pause twice the last: about 1.3 s in all before a table that stays
// missing is called lost.
constexpr int kListings = 8;
constexpr std::chrono::milliseconds kFirstPause{10};

// The most read-only opens of the DB for one listing (OpenForListing).
constexpr int kOpenAttempts = 6;

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
        return E::kId;
      }
    });
  }
  return IsRocksDbRibbonFilter(bytes) ? EncodingId::kCompact : EncodingId::kCacheLocal;
}

// The table's filters: bytes, kind and FP (partitions: the mean, each
// holding a share of the entries proportional to its bytes).
TableFilters FiltersOf(const rocksdb::TableProperties& props, const SstFilter& filter) {
  TableFilters t;
  t.keys = props.num_filter_entries > 0 ? props.num_filter_entries : props.num_entries;
  t.filter_bytes = filter.FilterBytes();
  t.filter_blocks = filter.partitions.size();
  // Its index and data blocks as the census records them.
  const TableRecord record = RecordOf(props);
  t.index_bytes = record.index_bytes, t.index_blocks = record.index_blocks;
  t.data_bytes = record.data_bytes, t.data_blocks = record.data_blocks;
  t.user_key_bytes = record.user_key_bytes, t.index_top_bytes = record.index_top_bytes;
  if (filter.layout == SstFilterLayout::kPartitioned && props.filter_size > t.filter_bytes) {
    t.partition_index_bytes = props.filter_size - t.filter_bytes;
  }
  if (filter.partitions.empty()) {
    t.kind = filter.layout == SstFilterLayout::kBlockBased ? "obsolete block-based" : "none";
    return t;
  }
  double fp_sum = 0;
  for (const SstFilterPartition& p : filter.partitions) {
    const FilterDescription d = Describe(filter.compatibility_name, p.contents);
    const double share = t.filter_bytes ? static_cast<double>(p.contents.size()) /
                                              static_cast<double>(t.filter_bytes)
                                        : 0;
    fp_sum += d.ExpectedFpRate(share * static_cast<double>(t.keys));
    if (t.kind.empty()) {
      t.kind = d.name;
      t.encoding = AlternativeOf(filter.compatibility_name, p.contents);
    }
  }
  t.fp_rate = fp_sum / static_cast<double>(filter.partitions.size());
  if (filter.layout == SstFilterLayout::kPartitioned) t.kind += ", partitioned";
  return t;
}

// A listed table held open from just after its listing: a compaction that
// removes it later does not take it from under the reading (its bytes stay
// readable through the descriptor, /proc/self/fd/N). Not held: missing by
// then, or it could not be opened (errno says).
class HeldTable {
 public:
  explicit HeldTable(const std::string& path)
      : fd_(open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)), error_(fd_ < 0 ? errno : 0) {}
  ~HeldTable() {
    if (fd_ >= 0) close(fd_);
  }
  HeldTable(const HeldTable&) = delete;
  HeldTable& operator=(const HeldTable&) = delete;

  bool missing() const { return error_ == ENOENT; }
  int error() const { return error_; }
  // The path that reads the held file (`listed`, where /proc is not mounted).
  std::string path(const std::string& listed) const {
    static const bool proc = std::filesystem::is_directory("/proc/self/fd");
    return proc ? absl::StrFormat("/proc/self/fd/%d", fd_) : listed;
  }

 private:
  int fd_;
  int error_;
};

// A live table's filters, or what is wrong with it: missing, not of the size
// the MANIFEST records (truncated), or failing the inspector's checks
// (checked_table.h; not every data block's checksum: that reads the DB).
// `held`: the table, opened when it was listed.
absl::StatusOr<TableFilters> ReadLiveTable(const rocksdb::LiveFileMetaData& f,
                                           const HeldTable& held,
                                           const rocksdb::Options& options, bool verify) {
  if (held.missing()) return absl::NotFoundError("missing, though the MANIFEST lists it");
  if (held.error() != 0) return absl::UnavailableError(std::strerror(held.error()));
  const std::string path = held.path(f.db_path + f.name);
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    return absl::FailedPreconditionError("not a regular file");
  }
  const uint64_t size = std::filesystem::file_size(path, error);
  if (error) return absl::UnavailableError(error.message());
  if (size != f.size) {
    return absl::DataLossError(absl::StrFormat("%s: %d bytes, the MANIFEST records %d",
                                               size < f.size ? "truncated" : "wrong size", size,
                                               f.size));
  }
  absl::StatusOr<CheckedTable> table =
      OpenCheckedTable(path, options, verify, /*verify_every_block=*/false);
  if (!table.ok()) {
    absl::string_view what = table.status().message();
    absl::ConsumePrefix(&what, path + ": ");
    return absl::Status(table.status().code(), what);
  }
  TableFilters filters = FiltersOf(*table->props, table->filter);
  filters.file_number = f.file_number;
  return filters;
}

// Opens the DB read-only. The writer may delete a file the open has found
// before the open reads it (a MANIFEST it has just replaced; the WALs,
// which it deletes after each flush, are not listed: table_listing_fs.h):
// an open that fails on a missing file is tried again after a pause
// (kFirstPause, doubling, up to kOpenAttempts in all); a DB whose files
// are truly missing fails each time.
rocksdb::Status OpenForListing(const std::string& dir, const rocksdb::DBOptions& options,
                               const std::vector<rocksdb::ColumnFamilyDescriptor>& families,
                               std::vector<rocksdb::ColumnFamilyHandle*>* handles,
                               std::unique_ptr<rocksdb::DB>* db) {
  rocksdb::Status s;
  std::chrono::milliseconds pause = kFirstPause;
  for (int attempt = 0; attempt < kOpenAttempts; ++attempt, pause *= 2) {
    if (attempt > 0) std::this_thread::sleep_for(pause);
    handles->clear();
    s = OpenDbForReadOnly(options, dir, families, handles, db);
    if (s.ok() || !s.IsPathNotFound()) break;
  }
  return s;
}

// The live tables of every column family, as the MANIFEST lists them now.
absl::StatusOr<std::vector<rocksdb::LiveFileMetaData>> ListLiveTables(
    const std::string& dir, const rocksdb::DBOptions& options,
    const std::vector<rocksdb::ColumnFamilyDescriptor>& families) {
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  std::unique_ptr<rocksdb::DB> db;
  if (rocksdb::Status s = OpenForListing(dir, options, families, &handles, &db); !s.ok()) {
    return absl::FailedPreconditionError(
        absl::StrFormat("--db=%s: RocksDB cannot open it: %s", dir, s.ToString()));
  }
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  for (rocksdb::ColumnFamilyHandle* h : handles) db->DestroyColumnFamilyHandle(h);
  return files;
}

// What was read of each table, by path: its filters or what is wrong with
// it. A table file never changes, so one read serves every listing that
// names it; its level (a trivial move changes it) comes from the listing.
using TablesRead = std::map<std::string, absl::StatusOr<TableFilters>>;

// Reads the tables of `files` that `read` lacks, or that were missing;
// returns the paths of those missing.
std::set<std::string> ReadNew(const std::vector<rocksdb::LiveFileMetaData>& files,
                              const rocksdb::DBOptions& db_options,
                              const std::vector<rocksdb::ColumnFamilyDescriptor>& families,
                              bool verify, TablesRead* read) {
  // Each table to read is opened first, all at once: reading them takes
  // long enough for a busy DB's compactions to remove some that were live
  // at the listing, and a table held open is read whole whatever happens.
  std::map<std::string, std::unique_ptr<HeldTable>> held;
  for (const rocksdb::LiveFileMetaData& f : files) {
    const std::string path = f.db_path + f.name;
    const auto it = read->find(path);
    if (it == read->end() || absl::IsNotFound(it->second.status())) {
      held.emplace(path, std::make_unique<HeldTable>(path));
    }
  }
  std::set<std::string> missing;
  for (const rocksdb::ColumnFamilyDescriptor& family : families) {
    const rocksdb::Options options(db_options, family.options);
    for (const rocksdb::LiveFileMetaData& f : files) {
      if (f.column_family_name != family.name) continue;
      const std::string path = f.db_path + f.name;
      const auto h = held.find(path);
      if (h != held.end()) {
        read->insert_or_assign(path, ReadLiveTable(f, *h->second, options, verify));
        held.erase(h);  // Closed once read.
      }
      if (absl::IsNotFound(read->at(path).status())) missing.insert(path);
    }
  }
  return missing;
}

// The column family's filter policy's options, where its OPTIONS file made
// an sstfilter policy (registered as it was made: policy_registry.h).
std::optional<FilterOptions> PolicyOf(const rocksdb::ColumnFamilyOptions& options) {
  if (options.table_factory == nullptr) return std::nullopt;
  const auto* table = options.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
  if (table == nullptr || table->filter_policy == nullptr) return std::nullopt;
  const std::optional<RegisteredPolicy> registered = RegisteredPolicyOf(table->filter_policy.get());
  if (!registered.has_value() || registered->sizing == nullptr) return std::nullopt;
  const std::optional<PolicySizing> sizing = registered->sizing(*table);
  if (!sizing.has_value()) return std::nullopt;
  return sizing->options;
}

// Each family's tables as `files` lists them, from `read`, but those in
// `left_out`.
std::vector<FamilyTables> Gather(const std::vector<rocksdb::LiveFileMetaData>& files,
                                 const std::vector<rocksdb::ColumnFamilyDescriptor>& families,
                                 const TablesRead& read, const std::set<std::string>& left_out) {
  std::vector<FamilyTables> result;
  for (const rocksdb::ColumnFamilyDescriptor& family : families) {
    FamilyTables& tables = result.emplace_back();
    tables.name = family.name;
    const rocksdb::Comparator* cmp = family.options.comparator;
    tables.bytewise = cmp == nullptr || std::string(cmp->Name()) == "leveldb.BytewiseComparator";
    tables.policy = PolicyOf(family.options);
    tables.host.deepest_unfiltered = family.options.optimize_filters_for_hits;
    tables.host.l0_stays = family.options.disable_auto_compactions;
    tables.host.bytewise = tables.bytewise;
    for (const rocksdb::LiveFileMetaData& f : files) {
      if (f.column_family_name != family.name || left_out.count(f.db_path + f.name) > 0) continue;
      const absl::StatusOr<TableFilters>& t = read.at(f.db_path + f.name);
      if (!t.ok()) {
        tables.unreadable.push_back(absl::StrFormat("%s%s (L%d): %s", f.db_path, f.name, f.level,
                                                    t.status().message()));
        continue;
      }
      TableFilters& table = tables.read.emplace_back(*t);
      table.level = f.level;
      table.smallest = f.smallestkey;
      table.largest = f.largestkey;
    }
  }
  return result;
}

}  // namespace

absl::StatusOr<std::vector<FamilyTables>> ReadLiveTables(const std::string& dir,
                                                         bool verify_checksums) {
  // Every file RocksDB opens is checked to be a regular file; no WAL is
  // replayed (table_listing_fs.h).
  const std::unique_ptr<rocksdb::Env> env = NewTableListingEnv();
  rocksdb::ConfigOptions config;
  config.ignore_unknown_options = true;
  config.env = env.get();
  rocksdb::DBOptions db_options;
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  if (rocksdb::Status s = rocksdb::LoadLatestOptions(config, dir, &db_options, &families);
      !s.ok()) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "--db=%s: not a RocksDB database (no options file read: %s)", dir, s.ToString()));
  }
  // The instance only lists the live tables, from the MANIFEST: with
  // paranoid checks off it neither refuses a table it cannot open nor, as a
  // secondary instance's recovery would, silently stops at the last state
  // before that table; each table is then read and checked here.
  db_options.env = env.get();
  db_options.paranoid_checks = false;
  db_options.create_if_missing = false;
  db_options.max_open_files = kMaxOpenFiles;
  // Nor read tables' properties at the open: the sooner the listing, the
  // fewer of its tables a busy DB's compactions remove before they are
  // held open (ReadNew).
  db_options.skip_stats_update_on_db_open = true;
  db_options.info_log = std::make_shared<SilentLogger>();
  // A compaction in the process that writes the DB deletes its input
  // tables after the MANIFEST says so: a listed table found missing is
  // lost only if the next listing, made after it was found missing, still
  // names it. While the last listing names a table missing that the one
  // before did not, the tables are listed again (after a pause) and the
  // tables new in that listing are read. A table found missing in the last
  // listing alone was removed while it was read; it is left out.
  TablesRead read;
  std::vector<rocksdb::LiveFileMetaData> files;
  std::set<std::string> missing, unconfirmed;
  std::chrono::milliseconds pause = kFirstPause;
  for (int listing = 0; listing < kListings; ++listing, pause *= 2) {
    if (listing > 0) std::this_thread::sleep_for(pause);
    absl::StatusOr<std::vector<rocksdb::LiveFileMetaData>> listed =
        ListLiveTables(dir, db_options, families);
    if (!listed.ok()) return listed.status();
    files = *std::move(listed);
    const std::set<std::string> before = std::move(missing);
    missing = ReadNew(files, db_options, families, verify_checksums, &read);
    unconfirmed.clear();
    for (const std::string& path : missing) {
      if (before.count(path) == 0) unconfirmed.insert(path);
    }
    if (unconfirmed.empty()) break;
  }
  return Gather(files, families, read, unconfirmed);
}

}  // namespace sstfilter
