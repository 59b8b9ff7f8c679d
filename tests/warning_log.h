// An info log for DB tests that keeps its lines at WARN and above, or at
// the level given (RocksDB logs from its background threads too, and the
// census from its own).
#ifndef SSTFILTER_TESTS_WARNING_LOG_H_
#define SSTFILTER_TESTS_WARNING_LOG_H_

#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "rocksdb/env.h"

namespace sstfilter::testing {

class WarningLog final : public rocksdb::Logger {
 public:
  explicit WarningLog(rocksdb::InfoLogLevel kept = rocksdb::InfoLogLevel::WARN_LEVEL)
      : rocksdb::Logger(rocksdb::InfoLogLevel::INFO_LEVEL), kept_(kept) {}
  using rocksdb::Logger::Logv;
  void Logv(const rocksdb::InfoLogLevel level, const char* format, va_list ap) override {
    if (level < kept_) return;
    char line[4096];
    std::vsnprintf(line, sizeof(line), format, ap);
    std::lock_guard<std::mutex> lock(mu_);
    lines_.push_back(line);
  }
  std::vector<std::string> Lines() const {
    std::lock_guard<std::mutex> lock(mu_);
    return lines_;
  }

 private:
  const rocksdb::InfoLogLevel kept_;
  mutable std::mutex mu_;
  std::vector<std::string> lines_;
};

}  // namespace sstfilter::testing

#endif  // SSTFILTER_TESTS_WARNING_LOG_H_
