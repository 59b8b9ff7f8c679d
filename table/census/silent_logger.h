// A RocksDB info log that drops every message: for the extra read-only or
// secondary instances sstfilter opens beside a DB (the advisor, the
// recovery flush's tree), which must not create or rotate a LOG file in the
// DB's directory.
#ifndef SSTFILTER_TABLE_CENSUS_SILENT_LOGGER_H_
#define SSTFILTER_TABLE_CENSUS_SILENT_LOGGER_H_

#include <cstdarg>

#include "rocksdb/env.h"

namespace sstfilter {

class SilentLogger final : public rocksdb::Logger {
 public:
  using rocksdb::Logger::Logv;
  void Logv(const char*, va_list) override {}
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_SILENT_LOGGER_H_
