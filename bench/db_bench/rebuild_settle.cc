#include "bench/db_bench/rebuild_settle.h"

#include <cstdint>
#include <thread>

namespace sstfilter::db_bench {

absl::Status SettleRebuilds(BenchDb* db, std::chrono::seconds quiet, std::chrono::seconds limit) {
  const auto start = std::chrono::steady_clock::now();
  auto changed = start;
  uint64_t tables = db->engine().Written().rebuilt_tables;
  for (auto now = start; now - changed < quiet && now - start < limit;
       now = std::chrono::steady_clock::now()) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const uint64_t so_far = db->engine().Written().rebuilt_tables;
    if (so_far != tables) tables = so_far, changed = std::chrono::steady_clock::now();
  }
  return db->engine().WaitForCompactions();
}

}  // namespace sstfilter::db_bench
