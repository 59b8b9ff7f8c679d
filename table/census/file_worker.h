// A thread of the census's own for its files (dir_file.h), so that no flush
// or compaction waits on them: a DB directory's files are input, and a slow
// or hostile one (a FIFO, a hung mount) must not stall the jobs the
// listener rides on.
//
// Tasks run one at a time, in the order posted. A task posted under a key
// replaces one still waiting under that key (the newest traffic summary is
// the only one worth writing). The thread starts at the first Post; the
// destructor runs what is waiting, then joins.
#ifndef SSTFILTER_TABLE_CENSUS_FILE_WORKER_H_
#define SSTFILTER_TABLE_CENSUS_FILE_WORKER_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace sstfilter {

class FileWorker {
 public:
  FileWorker() = default;
  FileWorker(const FileWorker&) = delete;
  FileWorker& operator=(const FileWorker&) = delete;
  ~FileWorker();

  // Queues `task`; returns its ticket (for WaitFor).
  uint64_t Post(const std::string& key, std::function<void()> task);
  // Waits at most `timeout` until every task posted up to `ticket` has run
  // or been replaced; whether they have.
  bool WaitFor(uint64_t ticket, std::chrono::milliseconds timeout);
  // Waits until every task posted before the call has run.
  void Drain();

 private:
  struct Task {
    std::string key;
    uint64_t ticket;
    std::function<void()> run;
  };
  void Run();

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Task> queue_;
  uint64_t posted_ = 0;  // The last ticket given.
  uint64_t done_ = 0;    // Every ticket up to this one has run.
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_FILE_WORKER_H_
