#include "filter/allocation/filters_by_run.h"

#include <algorithm>
#include <map>

#include "filter/allocation/run_reach.h"

namespace sstfilter {

namespace {

std::vector<KeyRange> RangesOf(const TreeRun& run) {
  std::vector<KeyRange> ranges;
  for (const TableFilters& t : run.tables) ranges.push_back({t.smallest, t.largest, t.keys});
  return ranges;
}

}  // namespace

RunBlocks BlocksOf(const TreeRun& run) {
  RunBlocks blocks;
  blocks.keys = static_cast<double>(run.keys());
  double filtered_keys = 0;
  for (const TableFilters& t : run.tables) {
    if (t.filter_blocks > 0) filtered_keys += static_cast<double>(t.keys);
    blocks.filter_bytes += static_cast<double>(t.filter_bytes);
    blocks.filter_blocks += static_cast<double>(t.filter_blocks);
    blocks.index_bytes += static_cast<double>(t.index_bytes);
    blocks.index_blocks += static_cast<double>(t.index_blocks);
    blocks.data_bytes += static_cast<double>(t.data_bytes);
    blocks.data_blocks += static_cast<double>(t.data_blocks);
  }
  blocks.fp_rate = run.fp_rate();
  if (blocks.keys > 0) blocks.filtered_share = filtered_keys / blocks.keys;
  blocks.reach = run.reach;
  return blocks;
}

TreeRuns CensusOf(const std::vector<TreeRun>& runs) {
  TreeRuns tree;
  for (const TreeRun& run : runs) {
    RunCensus census;
    census.keys = run.keys();
    census.tables = run.tables.size();
    census.reach = run.reach;
    if (run.level <= 0) {
      // Built, as the census counts its L0 tables: their filters are fixed.
      census.fixed_keys = census.keys;
      for (const TableFilters& t : run.tables) {
        // A partitioned filter's index too, as RocksDB's filter_size counts it.
        census.fixed_filter_bits += 8 * (t.filter_bytes + t.partition_index_bytes);
        census.unfiltered_keys += t.filter_bytes > 0 ? 0 : t.keys;
      }
      tree.l0_tables.push_back(census);
    } else {
      if (tree.levels.size() <= static_cast<size_t>(run.level)) tree.levels.resize(run.level + 1);
      tree.levels[run.level] = census;
    }
    const RunBlocks blocks = BlocksOf(run);
    tree.blocks.entries += blocks.keys;
    tree.blocks.data_bytes += blocks.data_bytes, tree.blocks.data_blocks += blocks.data_blocks;
    tree.blocks.index_bytes += blocks.index_bytes, tree.blocks.index_blocks += blocks.index_blocks;
  }
  return tree;
}

uint64_t TreeRun::keys() const {
  uint64_t n = 0;
  for (const TableFilters& t : tables) n += t.keys;
  return n;
}

uint64_t TreeRun::filter_bytes() const {
  uint64_t n = 0;
  for (const TableFilters& t : tables) n += t.filter_bytes;
  return n;
}

double TreeRun::fp_rate() const {
  double weighted = 0, keys = 0;
  for (const TableFilters& t : tables) {
    weighted += static_cast<double>(t.keys) * t.fp_rate;
    keys += static_cast<double>(t.keys);
  }
  return keys > 0 ? weighted / keys : (tables.empty() ? 0 : tables.front().fp_rate);
}

EncodingId TreeRun::encoding() const {
  std::map<EncodingId, uint64_t> keys;
  for (const TableFilters& t : tables) keys[t.encoding] += t.keys;
  const auto most = std::max_element(keys.begin(), keys.end(), [](const auto& a, const auto& b) {
    return a.second < b.second;
  });
  return most == keys.end() ? EncodingId::kCacheLocal : most->first;
}

std::vector<TreeRun> GroupIntoRuns(std::vector<TableFilters> tables, bool bytewise) {
  std::stable_sort(tables.begin(), tables.end(),
                   [](const TableFilters& a, const TableFilters& b) { return a.level < b.level; });
  std::vector<TreeRun> runs;
  for (TableFilters& t : tables) {
    if (runs.empty() || t.level == 0 || runs.back().level != t.level) {
      runs.push_back({t.level, {}, 1});
    }
    runs.back().tables.push_back(std::move(t));
  }
  std::vector<std::vector<KeyRange>> ranges;
  for (const TreeRun& run : runs) ranges.push_back(RangesOf(run));
  const std::vector<double> reach = TreeReaches(ranges, bytewise);
  for (size_t i = 0; i < runs.size(); ++i) runs[i].reach = reach[i];
  return runs;
}

TreeTraffic TrafficOf(const std::vector<TreeRun>& runs, const TableShare& share,
                      const TableShare& sampled) {
  TreeTraffic traffic;
  traffic.gets = kMinTrafficGets;
  for (const TreeRun& run : runs) {
    std::vector<TableTraffic>* tables = &traffic.l0;
    if (run.level > 0) {
      if (traffic.levels.size() <= static_cast<size_t>(run.level)) {
        traffic.levels.resize(run.level + 1);
      }
      tables = &traffic.levels[run.level];
    }
    const auto run_keys = static_cast<double>(run.keys());
    for (const TableFilters& t : run.tables) {
      TableTraffic table{t.file_number, {t.smallest, t.largest, t.keys}, share(t), 0, 0};
      table.uniform = UniformShare(run.reach, static_cast<double>(t.keys), run_keys);
      table.evidence = traffic.gets * table.uniform;
      if (sampled) table.sampled = sampled(t);
      tables->push_back(std::move(table));
    }
  }
  for (std::vector<TableTraffic>& level : traffic.levels) {
    std::sort(level.begin(), level.end(), [](const TableTraffic& a, const TableTraffic& b) {
      return a.range.smallest < b.range.smallest;
    });
  }
  return traffic;
}

std::vector<TreeRun> TablesAsRuns(std::vector<TableFilters> tables, const TableShare& share) {
  std::stable_sort(tables.begin(), tables.end(),
                   [](const TableFilters& a, const TableFilters& b) { return a.level < b.level; });
  std::vector<TreeRun> runs;
  for (TableFilters& t : tables) {
    const double reach = share(t);
    runs.push_back({t.level, {std::move(t)}, reach});
  }
  return runs;
}

}  // namespace sstfilter
