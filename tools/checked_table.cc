#include "tools/checked_table.h"

#include "absl/strings/str_format.h"
#include "inspect/sst_footer.h"
#include "inspect/sst_source.h"
#include "inspect/sst_structure.h"

namespace sstfilter {

absl::StatusOr<CheckedTable> OpenCheckedTable(const std::string& path,
                                              const rocksdb::Options& options,
                                              bool verify_checksums, bool verify_every_block) {
  absl::StatusOr<std::unique_ptr<SstSource>> source = OpenSstFileSource(path);
  if (!source.ok()) return source.status();
  // Our footer check first: its messages say why a file is not an SST.
  absl::StatusOr<SstFooter> footer = ReadSstFooter(**source);
  if (!footer.ok()) {
    return absl::DataLossError(absl::StrFormat("%s: not a block-based SST file: %s", path,
                                               footer.status().message()));
  }
  if (absl::Status s = CheckTableStructure(**source, *footer, verify_checksums); !s.ok()) {
    return absl::DataLossError(absl::StrFormat("%s: damaged table: %s", path, s.message()));
  }
  CheckedTable table;
  table.reader = std::make_unique<rocksdb::SstFileReader>(options);
  if (rocksdb::Status s = table.reader->Open(path); !s.ok()) {
    return absl::DataLossError(
        absl::StrFormat("%s: RocksDB cannot open it as an SST: %s", path, s.ToString()));
  }
  if (verify_every_block) {
    if (rocksdb::Status s = table.reader->VerifyChecksum(); !s.ok()) {
      return absl::DataLossError(
          absl::StrFormat("%s: checksum verification failed: %s", path, s.ToString()));
    }
  }
  table.props = table.reader->GetTableProperties();
  SstIndexFormat index_format;
  index_format.key_is_user_key = table.props->index_key_is_user_key != 0;
  index_format.value_delta_encoded = table.props->index_value_is_delta_encoded != 0;
  absl::StatusOr<SstFilter> filter = ReadSstFilter(**source, index_format, verify_checksums);
  if (!filter.ok()) {
    return absl::DataLossError(
        absl::StrFormat("%s: reading the filter: %s", path, filter.status().message()));
  }
  table.filter = *std::move(filter);
  return table;
}

}  // namespace sstfilter
