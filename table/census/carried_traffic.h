// What a reopened DB's census takes up from the DB's last instance: RocksDB
// starts its sampled reads per table and its statistics at zero when a DB
// opens, so without it the plans after a restart would spread the Gets
// uniformly and assume half find their key until the new instance had seen
// enough Gets itself (about 64 sampled Gets, 65,000 Gets; a window of
// 10,000 for the hit share). The last instance's census left both in the
// DB's traffic file (traffic_file.h), written at most kTrafficFileInterval
// before it closed.
#ifndef SSTFILTER_TABLE_CENSUS_CARRIED_TRAFFIC_H_
#define SSTFILTER_TABLE_CENSUS_CARRIED_TRAFFIC_H_

#include <memory>
#include <optional>
#include <string>

#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "table/census/traffic_file.h"

namespace sstfilter {

// What reading a DB's traffic file needs of the DB, taken on the thread of
// the event that asks (the file is read on the census's own thread, which
// must not touch a DB that may close meanwhile).
struct TrafficFileSite {
  std::string path;      // The traffic file's.
  std::string identity;  // The DB's (DB::GetDbIdentity); empty if unknown.
  rocksdb::Env* env = nullptr;
  std::shared_ptr<rocksdb::Logger> log;  // The DB's info log.
};
TrafficFileSite TrafficFileSiteOf(rocksdb::DB* db);

// The traffic file at `site`, if there is one that reads and names this
// DB's identity (version 3 on); else nullopt. A file of another DB (left in
// the directory) or of an earlier version is not taken up: its file
// numbers could name other tables; nor is a damaged one, one that is not a
// regular file, or one larger than kMaxTrafficFileBytes (dir_file.h). The
// DB's info log says which it took up, or why not (a warning).
std::optional<TrafficSummary> ReadCarriedTraffic(const TrafficFileSite& site);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_CARRIED_TRAFFIC_H_
