// Picks the reader for a filter block written by any of our encodings.
#ifndef SSTFILTER_TABLE_ROCKSDB_BITS_READER_FACTORY_H_
#define SSTFILTER_TABLE_ROCKSDB_BITS_READER_FACTORY_H_

#include "table/rocksdb/rocksdb_internal.h"

namespace sstfilter {

// The reader of the encoding whose bytes contents holds (filter/encodings.h).
// Never fails: unknown or damaged bytes get a reader that answers "may
// match". Caller owns it.
rocksdb::FilterBitsReader* NewBitsReader(const rocksdb::Slice& contents);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_ROCKSDB_BITS_READER_FACTORY_H_
