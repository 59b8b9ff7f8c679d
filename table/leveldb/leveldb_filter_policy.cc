#include "table/leveldb/leveldb_filter_policy.h"

#include <string>
#include <utility>
#include <vector>

#include "filter/filter_policy.h"
#include "leveldb/slice.h"

namespace sstfilter {

namespace {

std::string_view View(const leveldb::Slice& s) { return {s.data(), s.size()}; }

// Glue only: LevelDB's Slices in; sstfilter's FilterPolicy builds in the
// configured encoding, and a OneShotQuery (what that policy's KeyMayMatch
// is, asked here without its virtual call) reads them all. LevelDB hands
// KeyMayMatch the filter's bytes on every query: OneShotQuery parses just
// what the one probe needs, and its kernels were picked here, once.
class LevelDbFilterPolicy final : public leveldb::FilterPolicy {
 public:
  LevelDbFilterPolicy(std::unique_ptr<const sstfilter::FilterPolicy> filters,
                      EncodingId encoding)
      : filters_(std::move(filters)), name_(LevelDbFilterPolicyName(encoding)) {}

  const char* Name() const override { return name_; }

  // LevelDB passes the user keys of one 2 KB stretch of data blocks
  // (duplicates included) and expects the filter appended to *dst.
  void CreateFilter(const leveldb::Slice* keys, int n, std::string* dst) const override {
    std::vector<std::string_view> views;
    views.reserve(n);
    for (int i = 0; i < n; ++i) views.push_back(View(keys[i]));
    filters_->CreateFilter(views, dst);
  }

  bool KeyMayMatch(const leveldb::Slice& key, const leveldb::Slice& filter) const override {
    return query_.KeyMayMatch(View(key), View(filter));
  }

 private:
  const std::unique_ptr<const sstfilter::FilterPolicy> filters_;
  const OneShotQuery query_;
  const char* const name_;
};

}  // namespace

const char* LevelDbFilterPolicyName(EncodingId encoding) {
  return encoding == EncodingId::kLevelDb ? kLevelDbBuiltinPolicyName : kBloomPolicyName;
}

absl::StatusOr<std::unique_ptr<const leveldb::FilterPolicy>> NewLevelDbFilterPolicy(
    const FilterOptions& options) {
  absl::StatusOr<std::unique_ptr<const sstfilter::FilterPolicy>> filters =
      NewFilterPolicy(options);  // Validates the options.
  if (!filters.ok()) return filters.status();
  return std::make_unique<const LevelDbFilterPolicy>(*std::move(filters), options.encoding);
}

absl::StatusOr<std::unique_ptr<const leveldb::FilterPolicy>> NewLevelDbFilterPolicyFromString(
    std::string_view id) {
  absl::StatusOr<FilterOptions> options = ParsePolicyId(id);
  if (!options.ok()) return options.status();
  return NewLevelDbFilterPolicy(*options);
}

}  // namespace sstfilter
