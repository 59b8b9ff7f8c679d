// The file system of an instance that only lists and reads the tables of a
// DB another instance may be writing (the census's recovery tree, the
// advisor's reading of a live DB). A DB directory is input (dir_file.h):
// - a file is opened for reading only if it is a regular file: RocksDB
//   opens tables, the MANIFEST and OPTIONS files without O_NONBLOCK, so a
//   FIFO at one of those names would block the open for good, and a device
//   would be read without end; such an open fails instead, naming the file;
// - listings leave out write-ahead logs: the instance then replays none
//   (it wants the tables, not the memtable), and a writer deleting a WAL
//   after its flush cannot fail the open.
#ifndef SSTFILTER_TABLE_CENSUS_TABLE_LISTING_FS_H_
#define SSTFILTER_TABLE_CENSUS_TABLE_LISTING_FS_H_

#include <memory>

#include "rocksdb/env.h"

namespace sstfilter {

// An Env over rocksdb::FileSystem::Default() as described above.
std::unique_ptr<rocksdb::Env> NewTableListingEnv();

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_TABLE_LISTING_FS_H_
