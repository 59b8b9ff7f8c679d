#include "tests/ldb_test_util.h"

#include <memory>
#include <string>

#include "filter/encoding_id.h"
#include "filter/filter_options.h"
#include "leveldb/filter_policy.h"
#include "leveldb/slice.h"
#include "table/leveldb/leveldb_filter_policy.h"

namespace sstfilter::testing {

namespace {

// sstfilter's policy under another name.
class ForeignPolicy : public leveldb::FilterPolicy {
 public:
  const char* Name() const override { return "example.OtherBloom"; }
  void CreateFilter(const leveldb::Slice* keys, int n, std::string* dst) const override {
    filters_->CreateFilter(keys, n, dst);
  }
  bool KeyMayMatch(const leveldb::Slice& key, const leveldb::Slice& filter) const override {
    return filters_->KeyMayMatch(key, filter);
  }

 private:
  const std::unique_ptr<const leveldb::FilterPolicy> filters_ =
      NewLevelDbFilterPolicy(FilterOptions()).value();
};

}  // namespace

std::unique_ptr<const leveldb::FilterPolicy> NewLdbPolicy(const LdbConfig& config) {
  FilterOptions options;
  switch (config.filter) {
    case LdbFilter::kBuiltin:
      return std::unique_ptr<const leveldb::FilterPolicy>(leveldb::NewBloomFilterPolicy(10));
    case LdbFilter::kOurs:
      options.encoding = config.encoding;
      return NewLevelDbFilterPolicy(options).value();
    case LdbFilter::kForeign:
      return std::make_unique<ForeignPolicy>();
    case LdbFilter::kNone:
      break;
  }
  return nullptr;
}

std::vector<LdbWriter> AllLdbWriters() {
  std::vector<LdbWriter> writers = {{LdbFilter::kBuiltin, kDefaultEncoding, "builtin"}};
  for (EncodingId encoding : AllEncodingIds()) {
    writers.push_back({LdbFilter::kOurs, encoding, std::string(EncodingName(encoding))});
  }
  return writers;
}

}  // namespace sstfilter::testing
