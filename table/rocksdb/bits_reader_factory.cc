#include "table/rocksdb/bits_reader_factory.h"

#include "filter/encodings.h"
#include "table/rocksdb/bits_reader_adapter.h"

namespace sstfilter {

rocksdb::FilterBitsReader* NewBitsReader(const rocksdb::Slice& contents,
                                         std::shared_ptr<FilterAnswers> answers) {
  return VisitEncodingOf(std::string_view(contents.data(), contents.size()),
                         [&](auto encoding) -> rocksdb::FilterBitsReader* {
                           return new BitsReaderAdapter<typename decltype(encoding)::Reader>(
                               contents, answers);
                         });
}

}  // namespace sstfilter
