// Progress of sstfilter_db_bench's long runs, on stderr (stdout keeps the
// report): each line starts with the time since the process started, then
// says what runs and how much is left ("policy 2 of 5", "run 7 of 32").
#ifndef SSTFILTER_BENCH_DB_BENCH_PROGRESS_H_
#define SSTFILTER_BENCH_DB_BENCH_PROGRESS_H_

#include <string_view>

namespace sstfilter::db_bench {

// Prints "[mm:ss] <text>" on stderr, flushed.
void ProgressLine(std::string_view text);

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_PROGRESS_H_
