#include "table/census/read_samples.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "filter/allocation/traffic_moved.h"

namespace sstfilter {

namespace {

// What a table gained since the last reading, in sampled Gets; all it
// holds if its count went down (a new DB instance's table of that number).
double Gained(const rocksdb::LiveFileMetaData& f, const std::map<uint64_t, uint64_t>& last) {
  const auto it = last.find(f.file_number);
  const uint64_t before = it == last.end() || it->second > f.num_reads_sampled ? 0 : it->second;
  return static_cast<double>(f.num_reads_sampled - before) / kSampleEvery;
}

}  // namespace

void ReadSamples::Update(const std::vector<rocksdb::LiveFileMetaData>& files,
                         const std::map<uint64_t, double>& born_share) {
  // Each column family's Gets since the last reading: the most one level
  // (or one L0 table: key -1 - file number) gained.
  std::map<std::string, std::map<int64_t, double>> per_level;
  std::map<uint64_t, double> gained;
  for (const rocksdb::LiveFileMetaData& f : files) {
    const bool known = !read_ || last_reads_.count(f.file_number) != 0 ||
                       born_share.count(f.file_number) != 0;
    const double g = known ? Gained(f, last_reads_) : 0;
    gained[f.file_number] = g;
    const int64_t run = f.level > 0 ? f.level : -1 - static_cast<int64_t>(f.file_number);
    per_level[f.column_family_name][run] += g;
  }
  std::map<std::string, double> new_gets;
  for (const auto& [column_family, runs] : per_level) {
    double most = 0;
    for (const auto& [run, g] : runs) most = std::max(most, g);
    new_gets[column_family] = most;
    double& gets = gets_[column_family];
    gets = gets * std::exp(-most / kDecayGets) + most;
  }
  std::map<uint64_t, TableSamples> tables, window;
  std::map<uint64_t, uint64_t> reads;
  for (const rocksdb::LiveFileMetaData& f : files) {
    const double most = new_gets[f.column_family_name];
    const double decay = std::exp(-most / kDecayGets);
    TableSamples t;
    double lived = 0;  // Share of the interval it was live.
    if (const auto it = tables_.find(f.file_number); it != tables_.end()) {
      t = it->second, lived = 1;
    } else if (const auto heir = heirs_.find(f.file_number); heir != heirs_.end()) {
      t = heir->second;
      const auto born = born_share.find(f.file_number);
      lived = born == born_share.end() ? 1 : std::clamp(born->second, 0.0, 1.0);
    } else if (!read_) {
      lived = 1;
    } else if (const auto born = born_share.find(f.file_number); born != born_share.end()) {
      lived = std::clamp(born->second, 0.0, 1.0);
    }
    t.samples = t.samples * decay + gained[f.file_number];
    t.exposure = t.exposure * decay + lived * most;
    tables[f.file_number] = t;
    TableSamples w;
    if (const auto it = window_.find(f.file_number); it != window_.end()) w = it->second;
    w.samples = w.samples * decay + gained[f.file_number];
    w.exposure = w.exposure * decay + lived * most;
    window[f.file_number] = w;
    reads[f.file_number] = f.num_reads_sampled;
  }
  for (const auto& [column_family, most] : new_gets) {
    double& gets = window_gets_[column_family];
    gets = gets * std::exp(-most / kDecayGets) + most;
  }
  gone_.clear();
  for (const auto& [number, t] : tables_) {
    const auto family = families_.find(number);
    if (tables.count(number) != 0 || family == families_.end()) continue;
    const auto gets = new_gets.find(family->second);
    const double decay = gets == new_gets.end() ? 1 : std::exp(-gets->second / kDecayGets);
    gone_[family->second][number] = {t.samples * decay, t.exposure * decay};
  }
  families_.clear();
  for (const rocksdb::LiveFileMetaData& f : files) families_[f.file_number] = f.column_family_name;
  tables_ = std::move(tables);
  window_ = std::move(window);
  last_reads_ = std::move(reads);
  heirs_.clear();
  read_ = true;
  CloseWindows(files);
}

bool ReadSamples::MovedIn(const std::string& column_family,
                          const std::vector<rocksdb::LiveFileMetaData>& files) const {
  const double before_gets = Gets(column_family) - window_gets_.at(column_family);
  std::map<int, std::vector<WindowCounts>> levels;
  for (const rocksdb::LiveFileMetaData& f : files) {
    if (f.column_family_name != column_family || f.level <= 0) continue;
    if (window_members_.count(f.file_number) == 0 || untested_.count(f.file_number) != 0) {
      continue;
    }
    const TableSamples& t = tables_.at(f.file_number);
    const TableSamples& w = window_.at(f.file_number);
    const double before_exposure = t.exposure - w.exposure;
    if (before_exposure <= 0 || before_exposure < kMoveTestedExposure * before_gets) continue;
    levels[f.level].push_back(
        {(t.samples - w.samples) * before_gets / before_exposure, w.samples});
  }
  for (const auto& [level, counts] : levels) {
    if (TrafficMoved(counts)) return true;
  }
  return false;
}

void ReadSamples::CloseWindows(const std::vector<rocksdb::LiveFileMetaData>& files) {
  for (auto& [column_family, window_gets] : window_gets_) {
    if (window_gets < kMoveWindowGets) continue;
    const bool moved = MovedIn(column_family, files);
    // A count's part from before the window kept at kKeptOnMove.
    auto keep_window = [](double window, double* count) {
      *count = window + kKeptOnMove * (*count - window);
    };
    if (moved) {
      ++moves_[column_family];
      keep_window(window_gets, &gets_[column_family]);
      // A gone table's part in the window is not kept apart: all of it is cut.
      for (auto& [number, t] : gone_[column_family]) {
        t.samples *= kKeptOnMove, t.exposure *= kKeptOnMove;
      }
    }
    for (const rocksdb::LiveFileMetaData& f : files) {
      if (f.column_family_name != column_family) continue;
      TableSamples& w = window_[f.file_number];
      if (moved) {
        TableSamples& t = tables_[f.file_number];
        keep_window(w.samples, &t.samples);
        keep_window(w.exposure, &t.exposure);
        window_members_.erase(f.file_number);
      } else {
        window_members_.insert(f.file_number);
      }
      w = TableSamples();
    }
    window_gets = 0;
  }
  for (std::set<uint64_t>* live : {&window_members_, &untested_}) {
    for (auto it = live->begin(); it != live->end();) {
      it = window_.count(*it) != 0 ? std::next(it) : live->erase(it);
    }
  }
}

int ReadSamples::Moves(const std::string& column_family) const {
  const auto it = moves_.find(column_family);
  return it == moves_.end() ? 0 : it->second;
}

void ReadSamples::Rewritten(uint64_t from, const std::map<uint64_t, double>& to) {
  const TableSamples* parent = nullptr;
  if (const auto live = tables_.find(from); live != tables_.end()) parent = &live->second;
  for (const auto& [column_family, tables] : gone_) {
    if (const auto gone = tables.find(from); gone != tables.end()) parent = &gone->second;
  }
  if (parent == nullptr) return;
  const TableSamples counts = *parent;
  double entries = 0;
  for (const auto& [number, part] : to) entries += part;
  for (const auto& [number, part] : to) {
    const double weight = entries > 0 ? part / entries : 1.0 / static_cast<double>(to.size());
    if (number == from) continue;
    const TableSamples passed{counts.samples * weight, counts.exposure};
    // A reading that came between the rewrite and this call took the heir
    // for a table it did not know (nothing counted before it): its counts
    // go on from its parent's as that reading left them.
    if (const auto read = tables_.find(number); read != tables_.end()) {
      read->second.samples += passed.samples;
      read->second.exposure += passed.exposure;
    } else {
      heirs_[number] = passed;
    }
    untested_.insert(number);
  }
}

void ReadSamples::Carry(const std::vector<rocksdb::LiveFileMetaData>& files,
                        const std::map<uint64_t, double>& shares,
                        const std::map<uint64_t, double>& exposures) {
  for (const rocksdb::LiveFileMetaData& f : files) {
    const auto share = shares.find(f.file_number);
    const auto exposure = exposures.find(f.file_number);
    if (share == shares.end() || exposure == exposures.end()) continue;
    TableSamples& t = tables_[f.file_number];  // Zero before the first reading.
    if (read_) untested_.insert(f.file_number);
    t.samples += share->second * exposure->second;
    t.exposure += exposure->second;
    double& gets = gets_[f.column_family_name];
    gets = std::max(gets, exposure->second);
  }
}

double ReadSamples::Gets(const std::string& column_family) const {
  const auto it = gets_.find(column_family);
  return it == gets_.end() ? 0 : it->second;
}

}  // namespace sstfilter
