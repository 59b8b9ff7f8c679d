#include "table/census/file_worker.h"

#include <algorithm>
#include <utility>

namespace sstfilter {

FileWorker::~FileWorker() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

uint64_t FileWorker::Post(const std::string& key, std::function<void()> task) {
  uint64_t ticket = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.erase(std::remove_if(queue_.begin(), queue_.end(),
                                [&](const Task& waiting) { return waiting.key == key; }),
                 queue_.end());
    ticket = ++posted_;
    queue_.push_back(Task{key, ticket, std::move(task)});
    if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
  }
  cv_.notify_all();
  return ticket;
}

bool FileWorker::WaitFor(uint64_t ticket, std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  return cv_.wait_for(lock, timeout, [&] { return done_ >= ticket; });
}

void FileWorker::Drain() {
  std::unique_lock<std::mutex> lock(mu_);
  const uint64_t ticket = posted_;
  cv_.wait(lock, [&] { return done_ >= ticket; });
}

void FileWorker::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // Stopping, and nothing waits.
    Task task = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    task.run();
    lock.lock();
    // Tickets run in order; a replaced one's place is taken by a later one.
    done_ = queue_.empty() ? posted_ : queue_.front().ticket - 1;
    cv_.notify_all();
  }
}

}  // namespace sstfilter
