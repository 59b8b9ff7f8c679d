// Fuzz target: the SST inspector's parser (inspect/: ReadSstFooter,
// ReadUncompressedBlock, ReadSstFilter, CandidatePartitions, and the
// structure checks of sst_structure.h) on mutated real tables.
//
// Seeds: LLVMFuzzerInitialize writes small tables with RocksDB's
// SstFileWriter and the sstfilter policy (full and partitioned filters in
// every encoding of the list, all four checksum types) into
// $SSTFILTER_FUZZ_SEED_DIR (a temp dir if unset), once: pass that dir to the
// fuzzer as a corpus so it mutates exactly these bytes. Nothing binary is
// committed.
//
// On every input, parsed with each index format, checksums verified or not:
//   - the parser returns a Status and never crashes (ASan/UBSan watch);
//   - when it succeeds, every block it returns lies, with its 5-byte
//     trailer, before the footer, holds the file's bytes at its handle, is
//     uncompressed, and (when verifying) its trailer checksum matches,
//     recomputed here independently (bitwise CRC32C, libxxhash);
//   - key answers, where they can be known: if every block the parser read
//     (metaindex, filter block or partition index, partitions) is
//     byte-for-byte the seed's block at the same place, the filter is the
//     seed's, so each key the seed was written with must be answered "may
//     be present" (as sstfilter_sst answers: CandidatePartitions, then the
//     RocksDB glue's reader). A mere "checksums pass" is not enough: the
//     fuzzer writes the checksum a compare expects into the trailer (its
//     compare tracing does exactly that), and a filter with a correct
//     checksum may honestly say "absent". RocksDB's own reader is not the
//     reference: Debian's build asserts (aborts) on some crafted tables.
#include <rocksdb/env.h>
#include <rocksdb/iterator.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_reader.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/table.h>
#include <rocksdb/table_properties.h>
#include <stdlib.h>
#include <xxhash.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_format.h"
#include "filter/encoding_id.h"
#include "filter/filter_options.h"
#include "fuzz/fuzz_util.h"
#include "inspect/sst_filter_block.h"
#include "inspect/block_handle.h"
#include "inspect/block_reader.h"
#include "inspect/sst_footer.h"
#include "inspect/sst_source.h"
#include "inspect/sst_structure.h"
#include "table/rocksdb/bits_reader_factory.h"
#include "table/rocksdb/rocksdb_filter_policy.h"

namespace sstfilter::fuzz {
namespace {

// ---- Seed tables ----

// A seed table's name says how it is written: a seed dir kept from an older
// build never stands in for a table written differently.
struct SeedSpec {
  std::string name;
  EncodingId encoding;
  rocksdb::ChecksumType checksum;
  bool partitioned;
  // Partition index keys equal to the partitions' last keys (RocksDB's
  // kNoShortening), so seed keys sit exactly on partition boundaries, where
  // picking the wrong partition shows; otherwise RocksDB's shortened
  // separators, which fall between keys.
  bool exact_index_keys;
  int num_keys;
};

// For every encoding of the list (filter/encodings.h): a full filter, a
// partitioned one, and a partitioned one with exact index keys; the
// checksum types taken in turn, so every type is used.
std::vector<SeedSpec> SeedSpecs() {
  const struct {
    const char* name;
    bool partitioned, exact_index_keys;
    int num_keys;
  } kLayouts[] = {{"full", false, false, 600},  // Enough keys for a compact fuse body.
                  {"partitioned", true, false, 400},
                  {"partitioned_exact", true, true, 300}};
  const struct {
    const char* name;
    rocksdb::ChecksumType type;
  } kChecksums[] = {{"crc32c", rocksdb::kCRC32c},
                    {"xxhash", rocksdb::kxxHash},
                    {"xxhash64", rocksdb::kxxHash64},
                    {"xxh3", rocksdb::kXXH3}};
  std::vector<SeedSpec> specs;
  for (EncodingId encoding : AllEncodingIds()) {
    for (const auto& layout : kLayouts) {
      const auto& checksum = kChecksums[specs.size() % std::size(kChecksums)];
      specs.push_back({absl::StrFormat("%s_%s_%s_%d.sst", layout.name, EncodingName(encoding),
                                       checksum.name, layout.num_keys),
                       encoding, checksum.type, layout.partitioned, layout.exact_index_keys,
                       layout.num_keys});
    }
  }
  return specs;
}

struct Seed {
  std::string bytes;
  std::vector<std::string> keys;
  SstIndexFormat index_format;
  SstFilterLayout layout;
};

std::string SeedKey(int i) { return absl::StrFormat("key%06d", i * 7); }

void WriteSeed(const SeedSpec& spec, const std::string& path) {
  FilterOptions bloom;
  bloom.encoding = spec.encoding;
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy = NewRocksDbFilterPolicy(bloom).value();
  table.checksum = spec.checksum;
  if (spec.partitioned) {
    table.partition_filters = true;
    table.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
    table.metadata_block_size = 128;  // Several partitions from few keys:
    table.block_size = 256;           // partitions end at data block ends.
    if (spec.exact_index_keys) {
      table.index_shortening = rocksdb::BlockBasedTableOptions::IndexShorteningMode::kNoShortening;
    }
  }
  rocksdb::Options options;
  options.compression = rocksdb::kNoCompression;  // The parser reads uncompressed blocks.
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  const std::string tmp = path + ".tmp";
  rocksdb::Status s = writer.Open(tmp);
  for (int i = 0; s.ok() && i < spec.num_keys; ++i) s = writer.Put(SeedKey(i), "v");
  if (s.ok()) s = writer.Finish();
  SSTFILTER_FUZZ_CHECK(s.ok(), "writing seed ", tmp, ": ", s.ToString());
  SSTFILTER_FUZZ_CHECK(std::rename(tmp.c_str(), path.c_str()) == 0, "renaming ", tmp);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  SSTFILTER_FUZZ_CHECK(in.good() || in.eof(), "reading ", path);
  return out.str();
}

// The seed as RocksDB reads it (safe: the seed is intact): its keys and the
// index format the parser needs from its properties.
Seed LoadSeed(const SeedSpec& spec, const std::string& path) {
  Seed seed;
  seed.bytes = ReadFile(path);
  rocksdb::SstFileReader reader{rocksdb::Options()};
  rocksdb::Status s = reader.Open(path);
  SSTFILTER_FUZZ_CHECK(s.ok(), path, ": ", s.ToString());
  const auto props = reader.GetTableProperties();
  seed.index_format.key_is_user_key = props->index_key_is_user_key != 0;
  seed.index_format.value_delta_encoded = props->index_value_is_delta_encoded != 0;
  std::unique_ptr<rocksdb::Iterator> it(reader.NewIterator(rocksdb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) seed.keys.push_back(it->key().ToString());
  SSTFILTER_FUZZ_CHECK(it->status().ok() && seed.keys.size() == static_cast<size_t>(spec.num_keys),
                       path, ": ", seed.keys.size(), " keys");
  seed.layout = spec.partitioned ? SstFilterLayout::kPartitioned : SstFilterLayout::kFull;
  return seed;
}

std::vector<Seed>& Seeds() {
  static auto* seeds = new std::vector<Seed>();
  return *seeds;
}

// ---- Independent checks ----

uint32_t Fixed32At(std::string_view bytes, size_t pos) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(bytes[pos + i]);
  return v;
}

uint32_t BitwiseCrc32c(std::string_view data) {
  uint32_t crc = 0xffffffff;
  for (char c : data) {
    crc ^= static_cast<unsigned char>(c);
    for (int i = 0; i < 8; ++i) crc = (crc >> 1) ^ (0x82f63b78 & (0 - (crc & 1)));
  }
  return ~crc;
}

// The trailer checksum RocksDB writes for block bytes + type byte, or -1
// for a type without one.
int64_t ExpectedTrailerChecksum(uint8_t type, std::string_view block_and_type) {
  const std::string_view block = block_and_type.substr(0, block_and_type.size() - 1);
  const auto type_byte = static_cast<unsigned char>(block_and_type.back());
  switch (type) {
    case 1: {
      const uint32_t crc = BitwiseCrc32c(block_and_type);
      return static_cast<uint32_t>(((crc >> 15) | (crc << 17)) + 0xa282ead8u);
    }
    case 2:
      return XXH32(block_and_type.data(), block_and_type.size(), 0);
    case 3:
      return static_cast<uint32_t>(XXH64(block_and_type.data(), block_and_type.size(), 0));
    case 4:
      return static_cast<uint32_t>(XXH3_64bits(block.data(), block.size())) ^
             (type_byte * 0x6b9083d9u);
    default:
      return -1;
  }
}

void CheckBlock(std::string_view file, const SstFooter& footer, const BlockHandle& h,
                bool verified, const std::string& what) {
  const uint64_t end = file.size() - footer.encoded_size;
  SSTFILTER_FUZZ_CHECK(h.offset <= end && h.size <= end - h.offset &&
                           kBlockTrailerSize <= end - h.offset - h.size,
                       what, " at ", h.offset, "+", h.size, " overlaps the footer at ", end);
  SSTFILTER_FUZZ_CHECK(file[h.offset + h.size] == 0, what, " is compressed");
  if (!verified) return;
  const int64_t expected =
      ExpectedTrailerChecksum(footer.checksum_type, file.substr(h.offset, h.size + 1));
  if (expected >= 0) {
    SSTFILTER_FUZZ_CHECK(expected == Fixed32At(file, h.offset + h.size + 1), what,
                         " passed with a wrong checksum (type ", footer.checksum_type, ")");
  }
}

void CheckStructure(std::string_view file, const SstFilter& f, bool verified) {
  CheckBlock(file, f.footer, f.footer.metaindex, verified, "metaindex");
  switch (f.layout) {
    case SstFilterLayout::kNone:
    case SstFilterLayout::kBlockBased:
      SSTFILTER_FUZZ_CHECK(f.partitions.empty(), "filter without a block");
      return;
    case SstFilterLayout::kFull:
      SSTFILTER_FUZZ_CHECK(f.partitions.size() == 1 && f.partitions[0].handle == f.meta_handle,
                           "full filter");
      break;
    case SstFilterLayout::kPartitioned:
      CheckBlock(file, f.footer, f.meta_handle, verified, "partition index");
      SSTFILTER_FUZZ_CHECK(!f.partitions.empty(), "no partitions");
      break;
  }
  for (size_t i = 0; i < f.partitions.size(); ++i) {
    const SstFilterPartition& p = f.partitions[i];
    CheckBlock(file, f.footer, p.handle, verified, absl::StrCat("partition ", i));
    SSTFILTER_FUZZ_CHECK(p.contents == file.substr(p.handle.offset, p.handle.size),
                         "partition ", i, " contents are not the file's bytes");
    if (i > 0) {
      SSTFILTER_FUZZ_CHECK(f.partitions[i - 1].last_user_key <= p.last_user_key,
                           "partition keys out of order");
    }
  }
}

// Whether the block at h, trailer included, is the seed's block there.
bool SameAsSeed(std::string_view file, const Seed& seed, const BlockHandle& h) {
  const uint64_t n = h.size + kBlockTrailerSize;
  return h.offset <= seed.bytes.size() && n <= seed.bytes.size() - h.offset &&
         file.substr(h.offset, n) == std::string_view(seed.bytes).substr(h.offset, n);
}

bool ReadOnlySeedBlocks(std::string_view file, const Seed& seed, const SstFilter& f) {
  if (!SameAsSeed(file, seed, f.footer.metaindex)) return false;
  if (f.layout != SstFilterLayout::kNone && !SameAsSeed(file, seed, f.meta_handle)) return false;
  for (const SstFilterPartition& p : f.partitions) {
    if (!SameAsSeed(file, seed, p.handle)) return false;
  }
  return true;
}

// sstfilter_sst's answer for key: its candidate partitions, the glue's reader.
bool MayBePresent(const SstFilter& f, std::string_view key) {
  for (size_t i : CandidatePartitions(f, key)) {
    const SstFilterPartition& p = f.partitions[i];
    const std::unique_ptr<rocksdb::FilterBitsReader> reader(
        NewBitsReader(rocksdb::Slice(p.contents)));
    if (reader->MayMatch(rocksdb::Slice(key.data(), key.size()))) return true;
  }
  return false;
}

void CheckSeedKeys(std::string_view file, const SstFilter& f, const SstIndexFormat& fmt) {
  for (const Seed& seed : Seeds()) {
    if (seed.index_format.key_is_user_key != fmt.key_is_user_key ||
        seed.index_format.value_delta_encoded != fmt.value_delta_encoded ||
        !ReadOnlySeedBlocks(file, seed, f)) {
      continue;
    }
    for (const std::string& key : seed.keys) {
      SSTFILTER_FUZZ_CHECK(MayBePresent(f, key), "seed key ", key, " answered absent");
    }
  }
}

void ParseAndCheck(std::string_view file) {
  const std::unique_ptr<SstSource> source = NewStringSstSource(file);
  const absl::StatusOr<SstFooter> footer = ReadSstFooter(*source);
  if (footer.ok()) {
    SSTFILTER_FUZZ_CHECK(footer->encoded_size <= file.size(), "footer past the file");
    // The checks made before RocksDB sees a table: a Status, never a crash.
    for (bool verify : {true, false}) CheckTableStructure(*source, *footer, verify).IgnoreError();
  }
  for (int bits = 0; bits < 4; ++bits) {
    SstIndexFormat fmt;
    fmt.key_is_user_key = bits & 1;
    fmt.value_delta_encoded = bits & 2;
    for (bool verify : {true, false}) {
      const absl::StatusOr<SstFilter> f = ReadSstFilter(*source, fmt, verify);
      if (!f.ok()) continue;
      CheckStructure(file, *f, verify);
      CheckSeedKeys(file, *f, fmt);
    }
  }
}

// Each seed, intact: parsed, verified, every key present, absent keys not
// all "may be present" (else the key check above could never fail).
void CheckSeedsIntact() {
  for (const Seed& seed : Seeds()) {
    const std::unique_ptr<SstSource> source = NewStringSstSource(seed.bytes);
    const absl::StatusOr<SstFilter> f = ReadSstFilter(*source, seed.index_format, true);
    SSTFILTER_FUZZ_CHECK(f.ok(), "seed does not parse: ", f.status().ToString());
    SSTFILTER_FUZZ_CHECK(f->layout == seed.layout, "seed layout");
    SSTFILTER_FUZZ_CHECK(seed.layout == SstFilterLayout::kFull || f->partitions.size() > 1,
                         "seed has one partition");
    SSTFILTER_FUZZ_CHECK(ReadOnlySeedBlocks(seed.bytes, seed, *f), "seed blocks");
    const absl::Status structure = CheckTableStructure(*source, f->footer, true);
    SSTFILTER_FUZZ_CHECK(structure.ok(), "intact seed refused: ", structure.ToString());
    int absent = 0;
    for (int i = 0; i < 1000; ++i) absent += MayBePresent(*f, absl::StrCat("absent", i)) ? 0 : 1;
    SSTFILTER_FUZZ_CHECK(absent > 900, "seed filter answers absent for only ", absent, " of 1000");
    ParseAndCheck(seed.bytes);
  }
}

std::string SeedDir() {
  if (const char* dir = std::getenv("SSTFILTER_FUZZ_SEED_DIR"); dir != nullptr && *dir) {
    return dir;
  }
  std::string tmpl =
      (std::filesystem::temp_directory_path() / "sstfilter_fuzz_seeds_XXXXXX").string();
  SSTFILTER_FUZZ_CHECK(mkdtemp(tmpl.data()) != nullptr, "mkdtemp");
  return tmpl;
}

}  // namespace
}  // namespace sstfilter::fuzz

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  using namespace sstfilter::fuzz;
  const std::string dir = SeedDir();
  for (const SeedSpec& spec : SeedSpecs()) {
    const std::string path = dir + "/" + spec.name;
    if (std::ifstream(path).good() == false) WriteSeed(spec, path);
    Seeds().push_back(LoadSeed(spec, path));
  }
  std::fprintf(stderr, "sst_parser: %zu seed tables in %s\n", Seeds().size(), dir.c_str());
  CheckSeedsIntact();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const sstfilter::fuzz::ExactBytes file(
      std::string_view(reinterpret_cast<const char*>(data), size));
  sstfilter::fuzz::ParseAndCheck(file.view());
  return 0;
}
