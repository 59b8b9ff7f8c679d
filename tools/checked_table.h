// A block-based table opened the way the SST inspector trusts it, for both
// of its paths: one file (sst_main.cc) and each live table of a DB
// (db_advisor.cc).
#ifndef SSTFILTER_TOOLS_CHECKED_TABLE_H_
#define SSTFILTER_TOOLS_CHECKED_TABLE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "inspect/sst_filter_block.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/table_properties.h"

namespace sstfilter {

// A table opened and checked by RocksDB, with its filter read by our parser.
struct CheckedTable {
  std::unique_ptr<rocksdb::SstFileReader> reader;
  std::shared_ptr<const rocksdb::TableProperties> props;
  SstFilter filter;
};

// Opens the table at `path`: our footer and structure checks first
// (sst_structure.h: what RocksDB would trust unchecked, and would assert on),
// then RocksDB's reader with `options`, then, with verify_every_block,
// RocksDB's checksum check of every block (it reads the whole file), then
// our filter parser. verify_checksums checks the blocks our checks and
// parser read. An error's message starts with `path` and says what is wrong.
absl::StatusOr<CheckedTable> OpenCheckedTable(const std::string& path,
                                              const rocksdb::Options& options,
                                              bool verify_checksums, bool verify_every_block);

}  // namespace sstfilter

#endif  // SSTFILTER_TOOLS_CHECKED_TABLE_H_
