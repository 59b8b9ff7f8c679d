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

#include <optional>

#include "rocksdb/db.h"
#include "table/census/traffic_file.h"

namespace sstfilter {

// The traffic file in `db`'s directory, if there is one that reads and
// names this DB's identity (version 3 on); else nullopt. A file of another
// DB (left in the directory) or of an earlier version is not taken up: its
// file numbers could name other tables; nor is a damaged one. The DB's
// info log says which it took up, or why not (a warning). Reads on a
// thread of its own: called from a flush or compaction job's thread, whose
// I/O RocksDB tags as the job's.
std::optional<TrafficSummary> ReadCarriedTraffic(rocksdb::DB* db);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_CARRIED_TRAFFIC_H_
