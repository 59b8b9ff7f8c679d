// Picks the reader for a filter block written by any of our encodings.
#ifndef SSTFILTER_TABLE_ROCKSDB_BITS_READER_FACTORY_H_
#define SSTFILTER_TABLE_ROCKSDB_BITS_READER_FACTORY_H_

#include <memory>

#include "table/census/filter_answers.h"
#include "table/rocksdb/rocksdb_internal.h"

namespace sstfilter {

// The reader of the encoding whose bytes contents holds (filter/encodings.h).
// Never fails: unknown or damaged bytes get a reader that answers "may
// match". Caller owns it. It samples its answers into `answers` where not
// null (table/census/filter_answers.h).
rocksdb::FilterBitsReader* NewBitsReader(const rocksdb::Slice& contents,
                                         std::shared_ptr<FilterAnswers> answers = nullptr);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_ROCKSDB_BITS_READER_FACTORY_H_
