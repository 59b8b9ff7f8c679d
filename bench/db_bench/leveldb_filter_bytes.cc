#include "bench/db_bench/leveldb_filter_bytes.h"

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "inspect/leveldb_table.h"
#include "inspect/sst_source.h"

namespace sstfilter::db_bench {
namespace {

// File numbers from "leveldb.sstables": per level a "--- level N ---" line,
// then one " <number>:<size>[<smallest> .. <largest>]" line per table.
absl::StatusOr<std::vector<uint64_t>> LiveTableNumbers(leveldb::DB& db) {
  std::string listing;
  if (!db.GetProperty("leveldb.sstables", &listing)) {
    return absl::InternalError("LevelDB has no 'leveldb.sstables' property");
  }
  std::vector<uint64_t> numbers;
  for (absl::string_view line : absl::StrSplit(listing, '\n', absl::SkipEmpty())) {
    if (absl::StartsWith(line, "---")) continue;
    const absl::string_view number = line.substr(0, line.find(':'));
    uint64_t n = 0;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(number), &n)) {
      return absl::InternalError(
          absl::StrFormat("unexpected 'leveldb.sstables' line '%s'", line));
    }
    numbers.push_back(n);
  }
  return numbers;
}

// The table file of number n: "<n>.ldb", or "<n>.sst" (LevelDB before 1.14).
absl::StatusOr<std::unique_ptr<SstSource>> OpenTable(const std::string& path, uint64_t n) {
  absl::StatusOr<std::unique_ptr<SstSource>> file =
      OpenSstFileSource(absl::StrFormat("%s/%06d.ldb", path, n));
  if (absl::IsNotFound(file.status())) {
    file = OpenSstFileSource(absl::StrFormat("%s/%06d.sst", path, n));
  }
  return file;
}

}  // namespace

absl::StatusOr<uint64_t> LevelDbFilterBytes(leveldb::DB& db, const std::string& path) {
  absl::StatusOr<std::vector<uint64_t>> numbers = LiveTableNumbers(db);
  if (!numbers.ok()) return numbers.status();
  uint64_t bytes = 0;
  for (uint64_t n : *numbers) {
    absl::StatusOr<std::unique_ptr<SstSource>> file = OpenTable(path, n);
    if (absl::IsNotFound(file.status())) continue;  // Compacted away since.
    if (!file.ok()) return file.status();
    absl::StatusOr<LevelDbTable> table = ReadLevelDbTable(**file, /*verify_checksums=*/false);
    if (!table.ok()) return table.status();
    if (table->filter.has_value()) bytes += table->filter_handle.size;
  }
  return bytes;
}

}  // namespace sstfilter::db_bench
