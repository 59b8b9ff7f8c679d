// The SST inspector's path for LevelDB tables (.ldb files of a LevelDB
// database): describes the per-block filter block and answers questions
// about keys.
//
// libleveldb's public leveldb::Table opens the table and iterates all its
// entries (checking every data block's checksum with verify_checksums):
// that validates the data blocks and gives the keys, which are mapped to
// data blocks through the index and so to filters (keys per filter). The
// footer, metaindex, index and filter block are read by our bounds-checked
// parser (inspect/leveldb_table.h). A key is asked of the filter of the
// data block LevelDB's Get would read for it (CandidateBlocks).
#ifndef SSTFILTER_TOOLS_LEVELDB_INSPECT_H_
#define SSTFILTER_TOOLS_LEVELDB_INSPECT_H_

#include <cstdint>
#include <string>

#include "inspect/sst_source.h"
#include "tools/sst_tool.h"

namespace sstfilter {

// Prints the table's description and the answers to q; returns the exit
// status (sst_tool.h): kExitBadFile for a damaged table, kExitUnanswered
// for questions asked of a table without a filter or with a filter whose
// policy sstfilter cannot read. seed 0 picks a random one.
// REQUIRES: IsLevelDbTable(source); source reads path.
int InspectLevelDbTable(const std::string& path, const SstSource& source, const Questions& q,
                        uint64_t seed, bool verify_checksums);

}  // namespace sstfilter

#endif  // SSTFILTER_TOOLS_LEVELDB_INSPECT_H_
