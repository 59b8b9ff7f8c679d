#include "table/census/observed_hit_share.h"

#include <algorithm>

namespace sstfilter {

std::optional<GetOutcomes> GetOutcomesOf(const rocksdb::Statistics* statistics) {
  if (statistics == nullptr) return std::nullopt;
  GetOutcomes outcomes;
  outcomes.reached = statistics->getTickerCount(rocksdb::MEMTABLE_MISS);
  outcomes.found = statistics->getTickerCount(rocksdb::GET_HIT_L0) +
                   statistics->getTickerCount(rocksdb::GET_HIT_L1) +
                   statistics->getTickerCount(rocksdb::GET_HIT_L2_AND_UP);
  outcomes.filter_misses = statistics->getTickerCount(rocksdb::BLOCK_CACHE_FILTER_MISS);
  outcomes.index_misses = statistics->getTickerCount(rocksdb::BLOCK_CACHE_INDEX_MISS);
  outcomes.data_misses = statistics->getTickerCount(rocksdb::BLOCK_CACHE_DATA_MISS);
  return outcomes;
}

std::optional<double> HitShareWindow::Observe(const GetOutcomes& now) {
  if (now.reached < start_.reached || now.found < start_.found) {
    start_ = now;
    return share_;
  }
  const uint64_t reached = now.reached - start_.reached;
  if (reached >= std::max<uint64_t>(window_gets_, 1)) {
    // Tickers are read one at a time while Gets run: a found count may run
    // ahead of its reached one.
    const auto per_get = [&](uint64_t now_count, uint64_t start_count) {
      return now_count < start_count ? 0.0
                                     : static_cast<double>(now_count - start_count) /
                                           static_cast<double>(reached);
    };
    share_ = std::min(1.0, per_get(now.found, start_.found));
    MissWindow misses;
    misses.reads = GetReads{per_get(now.filter_misses, start_.filter_misses),
                            per_get(now.index_misses, start_.index_misses),
                            per_get(now.data_misses, start_.data_misses)};
    misses.gets = static_cast<double>(reached);
    misses.new_filter_bytes =
        now.new_filter_bytes < start_.new_filter_bytes
            ? 0.0
            : static_cast<double>(now.new_filter_bytes - start_.new_filter_bytes);
    misses_ = now.cache_counted ? std::optional<MissWindow>(misses) : std::nullopt;
    carried_ = false;
    start_ = now;
  }
  return share_;
}

void HitShareWindow::Carry(double share) {
  if (share_.has_value() && !carried_) return;
  share_ = share;
  carried_ = true;
}

}  // namespace sstfilter
