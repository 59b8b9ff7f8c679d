// Checks of a block-based table's structure that RocksDB's own reader
// trusts without a checksum, made before the table is handed to RocksDB.
//
// format_version <= 5 footers carry no checksum, and a block's checksum
// covers its bytes, not where it sits (format_version 6 and 7 tie both to the
// file and offset): a footer handle pointed at another intact block, or a
// metaindex that names blocks RocksDB does not know, passes every checksum,
// and RocksDB then fails an internal assert()
// (fatal in builds that keep asserts, Debian's among them) or misreads
// the table. What is checked:
//   - the metaindex is an uncompressed block of entries, keys in strictly
//     ascending order, each a meta block name RocksDB knows, each value a
//     block handle and nothing more;
//   - every meta block it names is uncompressed (RocksDB writes them so) and
//     lies inside the file;
//   - the metaindex, the meta blocks and the index occupy disjoint bytes;
//   - the index block's compression type is one the table's compression
//     property allows (ParseCompressionName: from format_version 7 the
//     types it lists, custom ones included; else a built-in type), and
//     that property, when RocksDB would parse it (format_version 7), is
//     well formed;
//   - with verify_checksums, each of those blocks matches its checksum.
// Damage is a DataLoss status naming the block and what is wrong.
#ifndef SSTFILTER_INSPECT_SST_STRUCTURE_H_
#define SSTFILTER_INSPECT_SST_STRUCTURE_H_

#include <string_view>

#include "absl/status/status.h"
#include "inspect/sst_footer.h"
#include "inspect/sst_source.h"

namespace sstfilter {

// Whether RocksDB knows a meta block of this name: the properties,
// compression dictionary, range deletion and hash index blocks, the index
// (format_version >= 6), and filters ("fullfilter.", "partitionedfilter.",
// "filter.").
bool IsKnownMetaBlockName(std::string_view name);

absl::Status CheckTableStructure(const SstSource& file, const SstFooter& footer,
                                 bool verify_checksums);

}  // namespace sstfilter

#endif  // SSTFILTER_INSPECT_SST_STRUCTURE_H_
