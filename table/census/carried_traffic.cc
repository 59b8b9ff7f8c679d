#include "table/census/carried_traffic.h"

#include <string>

#include "absl/status/statusor.h"
#include "rocksdb/options.h"
#include "table/census/dir_file.h"

namespace sstfilter {

namespace {

void Warn(const TrafficFileSite& site, const std::string& why) {
  rocksdb::Log(rocksdb::InfoLogLevel::WARN_LEVEL, site.log.get(),
               "sstfilter census: %s not taken up: %s", site.path.c_str(), why.c_str());
}

}  // namespace

TrafficFileSite TrafficFileSiteOf(rocksdb::DB* db) {
  TrafficFileSite site{db->GetName() + "/" + kTrafficFileName, "", db->GetEnv(),
                       db->GetDBOptions().info_log};
  if (!db->GetDbIdentity(site.identity).ok()) site.identity.clear();
  return site;
}

std::optional<TrafficSummary> ReadCarriedTraffic(const TrafficFileSite& site) {
  const absl::StatusOr<std::string> text =
      ReadRegularFile(site.env, site.path, kMaxTrafficFileBytes);
  if (absl::IsNotFound(text.status())) return std::nullopt;  // A new DB, or none known yet.
  if (!text.ok()) {
    Warn(site, PrintableExcerpt(text.status().message(), 400));
    return std::nullopt;
  }
  absl::StatusOr<TrafficSummary> summary = ParseTrafficFile(*text);
  if (!summary.ok()) {
    Warn(site, std::string(summary.status().message()));
    return std::nullopt;
  }
  if (summary->db_identity.empty()) {
    Warn(site, summary->version < 3
                   ? "written before version 3, it does not name its DB"
                   : "it has no 'db <identity>' line, so it does not name its DB");
    return std::nullopt;
  }
  if (site.identity.empty() || summary->db_identity != site.identity) {
    Warn(site, "it names DB '" + PrintableExcerpt(summary->db_identity, 80) +
                   "', not this one ('" + site.identity + "')");
    return std::nullopt;
  }
  rocksdb::Log(rocksdb::InfoLogLevel::INFO_LEVEL, site.log.get(),
               "sstfilter census: taken up from %s: %zu tables' shares of the Gets%s",
               site.path.c_str(), summary->tables.size(),
               summary->hit_share.has_value() ? ", the share finding their key" : "");
  return *std::move(summary);
}

}  // namespace sstfilter
