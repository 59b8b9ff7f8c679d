#include "tests/ldb_test_util.h"

#include <memory>
#include <string>

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

std::unique_ptr<const leveldb::FilterPolicy> NewLdbPolicy(LdbFilter filter) {
  FilterOptions options;
  switch (filter) {
    case LdbFilter::kBuiltin:
      return std::unique_ptr<const leveldb::FilterPolicy>(leveldb::NewBloomFilterPolicy(10));
    case LdbFilter::kCacheLocal:
      options.encoding = EncodingId::kCacheLocal;
      return NewLevelDbFilterPolicy(options).value();  // Named "sstfilter.bloom".
    case LdbFilter::kForeign:
      return std::make_unique<ForeignPolicy>();
    case LdbFilter::kNone:
      break;
  }
  return nullptr;
}

}  // namespace sstfilter::testing
