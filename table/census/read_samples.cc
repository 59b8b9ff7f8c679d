#include "table/census/read_samples.h"

#include <algorithm>
#include <cmath>

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
  std::map<uint64_t, TableSamples> tables;
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
    reads[f.file_number] = f.num_reads_sampled;
  }
  tables_ = std::move(tables);
  last_reads_ = std::move(reads);
  heirs_.clear();
  read_ = true;
}

void ReadSamples::Rewritten(uint64_t from, const std::map<uint64_t, double>& to) {
  const auto was = tables_.find(from);
  if (was == tables_.end()) return;
  double entries = 0;
  for (const auto& [number, part] : to) entries += part;
  for (const auto& [number, part] : to) {
    const double weight = entries > 0 ? part / entries : 1.0 / static_cast<double>(to.size());
    heirs_[number] = {was->second.samples * weight, was->second.exposure};
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
