// Writes a DB's traffic summary (traffic_file.h) into its directory, on the
// census's own thread (file_worker.h), as dir_file.h writes a file: under a
// fresh name, then renamed over the last one. A summary that cannot be
// written is left out (a filter never fails a flush or a compaction); the
// DB's LOG says so once at WARN, and again only if the reason changes.
#ifndef SSTFILTER_TABLE_CENSUS_TRAFFIC_WRITER_H_
#define SSTFILTER_TABLE_CENSUS_TRAFFIC_WRITER_H_

#include <string>

#include "table/census/carried_traffic.h"

namespace sstfilter {

// One DB instance's writes: what its first write clears away and the last
// failure it logged. Touched only by the census's file thread.
struct TrafficWrites {
  bool swept = false;
  std::string last_error;
};

// Writes `text` as the traffic file at `site`. The instance's first write
// first removes the fresh files a process stopped between a write and its
// rename left there (dir_file.h's IsFreshFileOf), and the temporary name
// versions before 2026-12 wrote through ("sstfilter-traffic.tmp").
void WriteTrafficSummary(const TrafficFileSite& site, const std::string& text,
                         TrafficWrites* writes);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_TRAFFIC_WRITER_H_
