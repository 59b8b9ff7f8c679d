#include "table/bits_reader_factory.h"

#include "filter/leveldb_bloom.h"
#include "table/bits_reader_adapter.h"

namespace sstfilter {

rocksdb::FilterBitsReader* NewBitsReader(const rocksdb::Slice& contents) {
  return new BitsReaderAdapter<LevelDbBloomReader>(contents);
}

}  // namespace sstfilter
