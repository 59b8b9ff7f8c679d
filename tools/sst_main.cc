// sstfilter_sst: shows the filter of a block-based SST file and queries it.
//
//   sstfilter_sst --file X.sst [--key K ...] [--key_hex H ...] [--sample_absent N]
//
// The table is opened and validated with RocksDB's public SstFileReader (which
// also supplies the table properties and verifies checksums); the filter bytes
// are read with our own bounds-checked parser (inspect/sst_filter_block.h) and
// queried through the same FilterBitsReader RocksDB would use.
//
// A LevelDB table (.ldb: a legacy footer and no RocksDB properties block)
// takes its own path, leveldb_inspect.h: libleveldb's Table validates it and
// lists its keys, our parser reads its per-block filters.
#include <cmath>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"
#include "filter/encodings.h"
#include "filter/filter_options.h"
#include "inspect/compression_name.h"
#include "inspect/leveldb_table.h"
#include "inspect/sst_filter_block.h"
#include "inspect/sst_source.h"
#include "rocksdb/iterator.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "table/rocksdb/bits_reader_factory.h"
#include "table/rocksdb/registration.h"
#include "tools/cache_advice.h"
#include "tools/checked_table.h"
#include "tools/child_guard.h"
#include "tools/db_advisor.h"
#include "tools/flags_usage.h"
#include "tools/leveldb_inspect.h"
#include "tools/number_flag.h"
#include "tools/sst_tool.h"

ABSL_FLAG(std::string, file, "", "the SST file to inspect (this or --db)");
ABSL_FLAG(std::string, db, "",
          "a RocksDB database directory: per level, its tables' filters, their modelled FP "
          "and data-block reads per absent Get, and what optimize_levels would give "
          "(this or --file)");
ABSL_FLAG(sstfilter::NumberFlag, cache_mb, {},
          "with --db: the block cache's MiB to show the device reads per Get of its filters "
          "at (not given: the block cache of the DB's last open, from its LOG)");
ABSL_FLAG(sstfilter::NumberFlag, hit_share, {},
          "with --db: the share of Gets that find their key, in [0, 1], for the block-cache "
          "section (not given: the DB's Gets as its census left them, else 0.5, "
          "assumed)");
ABSL_FLAG(std::vector<std::string>, key, {},
          "a user key (raw bytes) to look up in the filter; repeat the flag for more keys");
ABSL_FLAG(std::vector<std::string>, key_hex, {},
          "a user key in hex (e.g. 00ff61) to look up; repeat the flag for more keys");
ABSL_FLAG(int64_t, sample_absent, 0,
          "measure the FP rate on this many generated keys absent from the table");
ABSL_FLAG(uint64_t, seed, 0,
          "seed of the absent-key generator; 0 picks a random one (printed, so a run "
          "can be repeated)");
ABSL_FLAG(bool, tree_text, false,
          "with --db: print each column family's tree as a decision case (the text form of "
          "tests/decisions/: policy, block cache, runs, sampled reads, tables to decide) "
          "instead of the report");
ABSL_FLAG(bool, verify_checksums, true,
          "verify block checksums: RocksDB's check of the table, then each filter block "
          "(partitions included) as it is read");

namespace sstfilter {
namespace {

// Generated absent keys are held in memory (~50 bytes each): 1e8 is ~5 GB.
constexpr int64_t kMaxSample = 100'000'000;

constexpr char kUsage[] =
    "Shows the filter of a block-based SST file and queries it.\n"
    "  sstfilter_sst --file X.sst [--key K ...] [--key_hex H ...] [--sample_absent N]\n"
    "  sstfilter_sst --db DIR\n"
    "\n"
    "Prints the table's filter policy, whether the filter is full or partitioned,\n"
    "its size, entries, bits/key spent, encoding and expected FP rate; with --key /\n"
    "--key_hex whether each key may be present; with --sample_absent N the FP rate\n"
    "measured on N random keys of the table's typical key length that are absent\n"
    "from the table.\n"
    "\n"
    "A LevelDB table (.ldb, from a LevelDB database) is recognised and shown\n"
    "with its per-block filters (one per 2 KB of data-block offsets): their\n"
    "number, sizes and keys, the encoding; --key asks the filter of the data\n"
    "block LevelDB would read for the key.\n"
    "\n"
    "A table whose filter was not written by sstfilter (e.g. RocksDB's built-in\n"
    "bloomfilter), or that has no filter, is still described (exit 0), but\n"
    "--key and --sample_absent cannot be answered for it (exit 3).\n"
    "Exit status: 0 ok; 1 file missing, unreadable, not an SST or damaged;\n"
    "2 bad flag values (out of range, bad hex); Abseil's parser exits 1 for an\n"
    "unknown flag or a value not of the flag's type (e.g. --seed=abc);\n"
    "3 keys or a sample asked of a filter that is not sstfilter's, of a table\n"
    "without a filter, or of a prefix-only filter (whole_key_filtering off);\n"
    "141 standard output closed before the report was written (| head).\n"
    "\n"
    "With --db, a RocksDB database (opened read-only: safe while another\n"
    "process writes it): per column family and level, the tables, keys,\n"
    "filter bytes, the filters' kind (ours, RocksDB's Bloom or Ribbon), their\n"
    "modelled FP, the share of absent keys that reach the level and the data-block\n"
    "reads an absent-key Get costs there; then what per-level accuracy\n"
    "(optimize_levels) would give at the same filter bytes, and the filter bytes\n"
    "it would need for the same reads. A live table that cannot be read (missing,\n"
    "truncated, damaged) is named, the totals cover the others, and it exits 1.";

// Abseil flags keep only the last of repeated flags; --key and --key_hex are
// meant to be repeated, so they are taken out of argv (in order) first.
std::vector<std::pair<std::string, std::string>> TakeRepeatedKeys(std::vector<char*>* args,
                                                                  std::string* error) {
  std::vector<std::pair<std::string, std::string>> keys;
  std::vector<char*> rest;
  for (size_t i = 0; i < args->size(); ++i) {
    std::string_view arg = (*args)[i];
    if (arg == "--") {  // Everything after is positional.
      rest.insert(rest.end(), args->begin() + i, args->end());
      break;
    }
    std::string_view name = arg;
    while (!name.empty() && name.front() == '-') name.remove_prefix(1);
    const size_t eq = name.find('=');
    const std::string_view flag = name.substr(0, eq);
    if (i == 0 || name.size() == arg.size() || (flag != "key" && flag != "key_hex")) {
      rest.push_back((*args)[i]);
      continue;
    }
    if (eq != std::string_view::npos) {
      keys.emplace_back(std::string(flag), std::string(name.substr(eq + 1)));
    } else if (i + 1 < args->size()) {
      keys.emplace_back(std::string(flag), std::string((*args)[++i]));
    } else {
      *error = absl::StrFormat("--%s needs a value", flag);
    }
  }
  *args = std::move(rest);
  return keys;
}

bool DecodeHex(std::string_view hex, std::string* out) {
  if (hex.size() % 2 != 0) return false;
  for (char c : hex) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  }
  *out = absl::HexStringToBytes(std::string(hex));
  return true;
}

const char* ChecksumName(uint8_t type) {
  static const char* const kNames[] = {"none", "crc32c", "xxHash", "xxHash64", "XXH3"};
  return type < 5 ? kNames[type] : "unknown";
}

// Whether the table's blocks were checked: not when asked not to, and not
// when the table was written without checksums (type 0, "none").
bool ChecksumsVerified(const SstFooter& footer) {
  return absl::GetFlag(FLAGS_verify_checksums) && footer.checksum_type != 0;
}

const char* VerificationState(const SstFooter& footer) {
  if (footer.checksum_type == 0) return ", not verifiable";
  return ChecksumsVerified(footer) ? ", verified" : ", not verified";
}

// Answers "may this key be present?" the way RocksDB's table reader would.
class FilterQuery {
 public:
  FilterQuery(const SstFilter& filter, bool bytewise) : filter_(filter), bytewise_(bytewise) {
    for (const SstFilterPartition& p : filter.partitions) {
      readers_.emplace_back(NewBitsReader(rocksdb::Slice(p.contents)));
    }
  }
  bool MayMatch(std::string_view key) {
    const rocksdb::Slice slice(key.data(), key.size());
    if (!bytewise_) {  // Cannot pick the partition: ask them all.
      for (auto& r : readers_) {
        if (r->MayMatch(slice)) return true;
      }
      return false;
    }
    for (size_t i : CandidatePartitions(filter_, key)) {
      if (readers_[i]->MayMatch(slice)) return true;
    }
    return false;
  }

 private:
  const SstFilter& filter_;
  const bool bytewise_;
  std::vector<std::unique_ptr<rocksdb::FilterBitsReader>> readers_;
};

// Prints the encoding(s) of the partitions and returns the expected FP rate:
// the mean over partitions (queries spread evenly), each holding a share of
// the filter entries proportional to its size (one policy sizes them all).
double PrintEncodings(const SstFilter& filter, uint64_t filter_entries) {
  std::vector<std::pair<std::string, size_t>> groups;  // name, partitions.
  double fp_sum = 0;
  const double total_bytes = static_cast<double>(filter.FilterBytes());
  for (const SstFilterPartition& p : filter.partitions) {
    const FilterDescription e = DescribeFilter(p.contents);
    const double keys = total_bytes > 0 ? static_cast<double>(filter_entries) *
                                              static_cast<double>(p.contents.size()) / total_bytes
                                        : 0.0;
    fp_sum += e.ExpectedFpRate(keys);
    if (groups.empty() || groups.back().first != e.name) {
      groups.emplace_back(e.name, 0);
    }
    ++groups.back().second;
  }
  for (size_t i = 0; i < groups.size(); ++i) {
    absl::PrintF("%-22s %s", i == 0 ? "encoding" : "", groups[i].first);
    if (filter.layout == SstFilterLayout::kPartitioned) {
      absl::PrintF(" (%d partition%s)", groups[i].second, groups[i].second == 1 ? "" : "s");
    }
    absl::PrintF("\n");
  }
  return filter.partitions.empty() ? 0.0
                                   : fp_sum / static_cast<double>(filter.partitions.size());
}

// Generates n keys absent from the table, of its typical user key length L.
//
// A uniformly random L-byte string equals one of the table's keys with
// probability at most entries / 256^L, whatever the keys are. When that
// bound, times n, is negligible (< 0.001 expected collisions over the whole
// sample) random keys are used as they are: scanning a large table would cost
// far more than it could change the measurement. Otherwise (short keys) the
// table's keys of length L are scanned into a hash set with SstFileReader's
// iterator and colliding samples are redrawn. That iterator hides keys whose
// tombstone is in the same table; such keys still sit in the filter, so a
// sample equal to one would count as a false positive: said in the output.
absl::StatusOr<std::vector<std::string>> AbsentKeys(rocksdb::SstFileReader& reader,
                                                    const rocksdb::TableProperties& props,
                                                    size_t n, uint64_t seed,
                                                    std::string* how) {
  const uint64_t entries = props.num_entries + props.num_range_deletions;
  constexpr double kInternalKeyTrailer = 8;
  double avg = entries == 0 ? 16.0
                            : static_cast<double>(props.raw_key_size) /
                                      static_cast<double>(entries) -
                                  kInternalKeyTrailer;
  const size_t length = static_cast<size_t>(std::max(1.0, std::round(avg)));
  const double bound = static_cast<double>(entries) / std::pow(256.0, static_cast<double>(length));

  absl::flat_hash_set<std::string> present;
  if (bound * static_cast<double>(n) >= 1e-3) {
    constexpr uint64_t kMaxScannedEntries = 50'000'000;
    if (entries > kMaxScannedEntries) {
      return absl::ResourceExhaustedError(absl::StrFormat(
          "keys of %d bytes are too short to be absent by chance and the table "
          "(%d entries) is too large to scan; cannot make an absent-key sample",
          length, entries));
    }
    std::unique_ptr<rocksdb::Iterator> it(reader.NewIterator(rocksdb::ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      if (it->key().size() == length) present.insert(it->key().ToString());
    }
    if (!it->status().ok()) {
      return absl::DataLossError("scanning the table's keys: " + it->status().ToString());
    }
    *how = absl::StrFormat("checked against the table's %d keys of that length%s",
                           present.size(),
                           props.num_deletions > 0
                               ? " (keys deleted within the table are not visible; "
                                 "a sample equal to one counts as a false positive)"
                               : "");
  } else {
    *how = absl::StrFormat(
        "not checked: a random %d-byte key is in the table with probability <= %.3g",
        length, bound);
  }

  return DrawAbsentKeys(n, length, seed,
                        [&](const std::string& key) { return present.contains(key); });
}

// Checks the flags and decodes --key/--key_hex; exit status on failure.
std::optional<int> ReadQuestions(const std::vector<std::pair<std::string, std::string>>& raw_keys,
                                 Questions* q) {
  q->sample = absl::GetFlag(FLAGS_sample_absent);
  if (absl::GetFlag(FLAGS_file).empty()) {
    return Fail(kExitUsage, "--file or --db is required (see --help)");
  }
  if (q->sample < 0 || q->sample > kMaxSample) {
    return Fail(kExitUsage, absl::StrFormat("--sample_absent=%d: need a count in [0, %d]",
                                            q->sample, kMaxSample));
  }
  for (const auto& [flag, value] : raw_keys) {
    if (flag == "key") {
      q->keys.push_back(value);
    } else if (std::string bytes; DecodeHex(value, &bytes)) {
      q->keys.push_back(std::move(bytes));
    } else {
      return Fail(kExitUsage,
                  absl::StrFormat("--key_hex=%s: expected an even number of hex digits (0-9, a-f)",
                                  value));
    }
  }
  return std::nullopt;
}

// Opens path; on failure prints why and returns the exit status.
std::optional<int> OpenTable(const std::string& path, CheckedTable* table) {
  const bool verify = absl::GetFlag(FLAGS_verify_checksums);
  absl::StatusOr<CheckedTable> checked = OpenCheckedTable(path, rocksdb::Options(), verify, verify);
  if (!checked.ok()) return Fail(kExitBadFile, std::string(checked.status().message()));
  *table = *std::move(checked);
  return std::nullopt;
}

void PrintTable(const std::string& path, const CheckedTable& table) {
  const rocksdb::TableProperties& props = *table.props;
  absl::PrintF("%-22s %s\n", "file", path);
  absl::PrintF("%-22s %d (checksum %s%s)\n", "format_version", table.filter.footer.format_version,
               ChecksumName(table.filter.footer.checksum_type),
               VerificationState(table.filter.footer));
  absl::PrintF("%-22s %d (deletions %d, merge operands %d, range deletions %d)\n", "entries",
               props.num_entries, props.num_deletions, props.num_merge_operands,
               props.num_range_deletions);
  if (props.num_entries > 0) {
    absl::PrintF("%-22s %.1f bytes average\n", "user key length",
                 static_cast<double>(props.raw_key_size) /
                         static_cast<double>(props.num_entries) - 8);
  }
  // Decoded per format_version (7 names the compression manager and lists
  // the types used); RocksDB opened the table, so the value is well formed.
  const absl::StatusOr<CompressionName> compression =
      ParseCompressionName(props.compression_name, table.filter.footer.format_version);
  absl::PrintF("%-22s %s\n", "compression",
               compression.ok() ? compression->ToString() : props.compression_name);
  absl::PrintF("%-22s %s\n", "comparator", props.comparator_name);
  absl::PrintF("%-22s %s\n", "prefix extractor", props.prefix_extractor_name);
  absl::PrintF("%-22s %s\n", "filter policy",
               props.filter_policy_name.empty() ? "(none)" : props.filter_policy_name);
}

// Prints the filter's layout; returns why it cannot be queried, if it cannot.
std::optional<std::string> PrintFilterLayout(const SstFilter& filter) {
  switch (filter.layout) {
    case SstFilterLayout::kNone:
      absl::PrintF("%-22s none\n", "filter");
      return "the table has no filter";
    case SstFilterLayout::kBlockBased:
      absl::PrintF("%-22s obsolete block-based filter '%s' (%d bytes), not read\n", "filter",
                   filter.meta_block_name, filter.meta_handle.size);
      return "the table's obsolete block-based filter is not supported";
    case SstFilterLayout::kFull:
      absl::PrintF("%-22s full (meta block '%s')\n", "filter", filter.meta_block_name);
      return std::nullopt;
    case SstFilterLayout::kPartitioned:
      absl::PrintF("%-22s partitioned: %d partitions, top-level index %d bytes (meta block '%s')\n",
                   "filter", filter.partitions.size(), filter.meta_handle.size,
                   filter.meta_block_name);
      return std::nullopt;
  }
  return std::nullopt;
}

// Prints sizes, encoding and expected FP rate; returns why the filter cannot
// be queried (not ours), if it cannot. REQUIRES: the filter has partitions.
std::optional<std::string> PrintFilterContents(const CheckedTable& table, double* expected_fp) {
  const SstFilter& filter = table.filter;
  const uint64_t filter_entries = table.props->num_filter_entries;
  const size_t filter_bytes = filter.FilterBytes();
  absl::PrintF("%-22s %d%s\n", "filter bytes", filter_bytes,
               filter.layout == SstFilterLayout::kPartitioned
                   ? " (all partitions, top-level index excluded)"
                   : "");
  absl::PrintF("%-22s %d\n", "filter entries", filter_entries);
  if (filter_entries > 0) {
    absl::PrintF("%-22s %.3f\n", "bits/key spent",
                 8.0 * static_cast<double>(filter_bytes) / static_cast<double>(filter_entries));
  }
  if (filter.compatibility_name != kBloomPolicyName) {
    absl::PrintF("%-22s unknown: not written by sstfilter (compatibility name '%s')\n",
                 "encoding", filter.compatibility_name);
    return absl::StrFormat("the filter is '%s', not sstfilter's '%s'",
                           filter.compatibility_name, kBloomPolicyName);
  }
  *expected_fp = PrintEncodings(filter, filter_entries);
  absl::PrintF("%-22s %.6g\n", "expected fp rate", *expected_fp);
  return std::nullopt;
}

// Answers --key and --sample_absent; returns the exit status.
int Answer(CheckedTable& table, const Questions& q, double expected_fp) {
  const rocksdb::TableProperties& props = *table.props;
  // With whole-key filtering off the filter holds only key prefixes, and
  // asking it about whole keys would give false negatives.
  const auto wkf = props.user_collected_properties.find(
      rocksdb::BlockBasedTablePropertyNames::kWholeKeyFiltering);
  if (wkf != props.user_collected_properties.end() && wkf->second == "0") {
    return Fail(kExitUnanswered,
                "cannot answer --key/--sample_absent: the filter holds only key prefixes "
                "(whole_key_filtering was off)");
  }
  const bool bytewise = props.comparator_name == "leveldb.BytewiseComparator";
  if (!bytewise && table.filter.layout == SstFilterLayout::kPartitioned) {
    absl::PrintF("%-22s comparator is not bytewise: answers are the OR of all partitions\n",
                 "note");
  }
  FilterQuery query(table.filter, bytewise);
  if (!q.keys.empty() && !ChecksumsVerified(table.filter.footer)) {
    absl::PrintF("%-22s the filter's bytes were not verified (checksum %s%s): a damaged "
                 "filter can answer \"absent\" for a present key\n",
                 "warning", ChecksumName(table.filter.footer.checksum_type),
                 VerificationState(table.filter.footer));
  }
  for (const std::string& key : q.keys) {
    absl::PrintF("key \"%s\" (%d bytes): %s\n", absl::CHexEscape(key), key.size(),
                 query.MayMatch(key) ? "may be present" : "absent");
  }
  if (q.sample == 0) return 0;
  std::string how;
  uint64_t seed = absl::GetFlag(FLAGS_seed);
  while (seed == 0) seed = (uint64_t{std::random_device()()} << 32) | std::random_device()();
  absl::StatusOr<std::vector<std::string>> absent =
      AbsentKeys(*table.reader, props, static_cast<size_t>(q.sample), seed, &how);
  if (!absent.ok()) return Fail(kExitBadFile, std::string(absent.status().message()));
  size_t positives = 0;
  for (const std::string& key : *absent) positives += query.MayMatch(key) ? 1 : 0;
  absl::PrintF("%-22s %d random keys of %d bytes (seed %d)\n", "absent-key sample",
               absent->size(), absent->front().size(), seed);
  absl::PrintF("%-22s %s\n", "absence", how);
  absl::PrintF("%-22s %.6g (%d of %d; expected %.6g)\n", "measured fp rate",
               static_cast<double>(positives) / static_cast<double>(absent->size()), positives,
               absent->size(), expected_fp);
  return 0;
}

// Run's status once its output is flushed: a closed output (`| head`) turns
// success into kExitOutputClosed, quietly; an output that could not be
// written otherwise (a full disk) is a failure.
int FinishOutput(int code) {
  std::fflush(stdout);
  if (OutputClosed()) return code == 0 ? kExitOutputClosed : code;
  if (std::ferror(stdout)) return Fail(kExitBadFile, "could not write the output");
  return code;
}

int Run(const std::vector<std::pair<std::string, std::string>>& raw_keys) {
  if (const std::string db = absl::GetFlag(FLAGS_db); !db.empty()) {
    if (!absl::GetFlag(FLAGS_file).empty() || !raw_keys.empty() ||
        absl::GetFlag(FLAGS_sample_absent) != 0) {
      return Fail(kExitUsage, "--db takes no --file, --key, --key_hex or --sample_absent");
    }
    CacheQuestion cache;
    if (const NumberFlag mb = absl::GetFlag(FLAGS_cache_mb); mb.value.has_value()) {
      const absl::StatusOr<double> checked = CheckCacheMb(*mb.value, mb.text);
      if (!checked.ok()) return Fail(kExitUsage, std::string(checked.status().message()));
      cache.cache_mb = *checked;
    }
    if (const NumberFlag share = absl::GetFlag(FLAGS_hit_share); share.value.has_value()) {
      const absl::StatusOr<double> checked = CheckHitShare(*share.value, share.text);
      if (!checked.ok()) return Fail(kExitUsage, std::string(checked.status().message()));
      cache.hit_share = *checked;
    }
    return AdviseDb(db, absl::GetFlag(FLAGS_verify_checksums), cache,
                    absl::GetFlag(FLAGS_tree_text) ? DbOutput::kTreeCase : DbOutput::kReport);
  }
  if (absl::GetFlag(FLAGS_cache_mb).value.has_value() ||
      absl::GetFlag(FLAGS_hit_share).value.has_value() || absl::GetFlag(FLAGS_tree_text)) {
    return Fail(kExitUsage,
                "--cache_mb, --hit_share and --tree_text go with --db (a whole database)");
  }
  Questions questions;
  if (std::optional<int> exit = ReadQuestions(raw_keys, &questions)) return *exit;
  const std::string path = absl::GetFlag(FLAGS_file);
  if (absl::StatusOr<std::unique_ptr<SstSource>> source = OpenSstFileSource(path);
      source.ok() && IsLevelDbTable(**source)) {
    return InspectLevelDbTable(path, **source, questions, absl::GetFlag(FLAGS_seed),
                               absl::GetFlag(FLAGS_verify_checksums));
  }
  EnsureRocksDbFilterPoliciesRegistered();
  CheckedTable table;
  if (std::optional<int> exit = OpenTable(path, &table)) return *exit;
  PrintTable(path, table);
  std::optional<std::string> unanswerable = PrintFilterLayout(table.filter);
  double expected_fp = 0;
  if (!unanswerable.has_value()) unanswerable = PrintFilterContents(table, &expected_fp);
  if (!questions.any()) return 0;
  if (unanswerable.has_value()) {
    return Fail(kExitUnanswered,
                absl::StrFormat("cannot answer --key/--sample_absent: %s", *unanswerable));
  }
  return Answer(table, questions, expected_fp);
}

}  // namespace
}  // namespace sstfilter

int main(int argc, char** argv) {
  sstfilter::SetToolUsage("tools/sst_main.cc", sstfilter::kUsage);
  std::vector<char*> args(argv, argv + argc);
  std::string error;
  const auto keys = sstfilter::TakeRepeatedKeys(&args, &error);
  if (!error.empty()) return sstfilter::Fail(sstfilter::kExitUsage, error);
  std::vector<char*> rest = absl::ParseCommandLine(static_cast<int>(args.size()), args.data());
  if (rest.size() > 1) {
    return sstfilter::Fail(sstfilter::kExitUsage,
                           absl::StrFormat("unexpected argument '%s'", rest[1]));
  }
  // RocksDB's reader runs in a child process: a table damaged in a way it
  // asserts on ends the child, and the tool reports it (exit 1).
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  sstfilter::CatchClosedOutput();
  const sstfilter::ChildOutcome outcome = sstfilter::RunInChild(
      [&keys] { return sstfilter::FinishOutput(sstfilter::Run(keys)); });
  if (!outcome.error.empty()) return sstfilter::Fail(sstfilter::kExitBadFile, outcome.error);
  // Never damage: the child catches SIGPIPE, but a closed output is no
  // table's fault whichever way it ends the child.
  if (outcome.term_signal == SIGPIPE) return sstfilter::kExitOutputClosed;
  if (outcome.term_signal != 0) {
    const bool db = absl::GetFlag(FLAGS_file).empty();
    return sstfilter::Fail(
        sstfilter::kExitBadFile,
        absl::StrFormat(
            "%s: %s", db ? absl::GetFlag(FLAGS_db) : absl::GetFlag(FLAGS_file),
            sstfilter::ChildDeath(
                outcome, db ? "the DB's files" : "the table",
                db ? "a table or the MANIFEST is damaged in a way no checksum covers, or RocksDB "
                     "failed an internal check on it"
                   : "it is damaged in a way no checksum covers (a format_version <= 5 footer "
                     "has none), or RocksDB failed an internal check on it")));
  }
  return outcome.exit_code;
}
