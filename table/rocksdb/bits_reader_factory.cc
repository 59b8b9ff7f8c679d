#include "table/rocksdb/bits_reader_factory.h"

#include "filter/cache_local_bloom.h"
#include "filter/leveldb_bloom.h"
#include "table/rocksdb/bits_reader_adapter.h"

namespace sstfilter {

rocksdb::FilterBitsReader* NewBitsReader(const rocksdb::Slice& contents) {
  // The final byte tells the encodings apart: k (<= 30) for LevelDB's, a
  // reserved value for the others. Unknown tags go to the LevelDB reader,
  // which answers "may match" for them.
  if (IsCacheLocalBloomFilter(std::string_view(contents.data(), contents.size()))) {
    return new BitsReaderAdapter<CacheLocalBloomReader>(contents);
  }
  return new BitsReaderAdapter<LevelDbBloomReader>(contents);
}

}  // namespace sstfilter
