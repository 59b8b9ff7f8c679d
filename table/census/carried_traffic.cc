#include "table/census/carried_traffic.h"

#include <memory>
#include <string>
#include <thread>

#include "rocksdb/env.h"
#include "rocksdb/options.h"

namespace sstfilter {

namespace {

// The file's text; nullopt where there is none (a new DB, or one whose
// census has not known its traffic yet).
std::optional<std::string> ReadTextOf(rocksdb::DB* db, const std::string& path) {
  std::string text;
  rocksdb::Status read;
  std::thread([&] { read = rocksdb::ReadFileToString(db->GetEnv(), path, &text); }).join();
  if (!read.ok()) return std::nullopt;
  return text;
}

}  // namespace

std::optional<TrafficSummary> ReadCarriedTraffic(rocksdb::DB* db) {
  const std::string path = db->GetName() + "/" + kTrafficFileName;
  const std::optional<std::string> text = ReadTextOf(db, path);
  if (!text.has_value()) return std::nullopt;
  const std::shared_ptr<rocksdb::Logger> log = db->GetDBOptions().info_log;
  absl::StatusOr<TrafficSummary> summary = ParseTrafficFile(*text);
  if (!summary.ok()) {
    rocksdb::Log(rocksdb::InfoLogLevel::WARN_LEVEL, log.get(),
                 "sstfilter census: %s not taken up: %s", path.c_str(),
                 std::string(summary.status().message()).c_str());
    return std::nullopt;
  }
  if (summary->db_identity.empty()) {
    rocksdb::Log(rocksdb::InfoLogLevel::WARN_LEVEL, log.get(),
                 "sstfilter census: %s not taken up: written before version 3, it does not name "
                 "its DB",
                 path.c_str());
    return std::nullopt;
  }
  std::string identity;
  if (!db->GetDbIdentity(identity).ok() || summary->db_identity != identity) {
    rocksdb::Log(rocksdb::InfoLogLevel::WARN_LEVEL, log.get(),
                 "sstfilter census: %s not taken up: it names DB '%s', not this one ('%s')",
                 path.c_str(), summary->db_identity.c_str(), identity.c_str());
    return std::nullopt;
  }
  rocksdb::Log(rocksdb::InfoLogLevel::INFO_LEVEL, log.get(),
               "sstfilter census: taken up from %s: %zu tables' shares of the Gets%s", path.c_str(),
               summary->tables.size(),
               summary->hit_share.has_value() ? ", the share finding their key" : "");
  return *std::move(summary);
}

}  // namespace sstfilter
