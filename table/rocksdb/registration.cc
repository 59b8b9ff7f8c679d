#include "table/rocksdb/registration.h"

#include <memory>
#include <mutex>

#include "rocksdb/filter_policy.h"
#include "filter/bloom_options.h"
#include "table/rocksdb/rocksdb_bloom_policy.h"

namespace sstfilter {

int RegisterRocksDbFilterPolicies(rocksdb::ObjectLibrary& library,
                                  const std::string& /*arg*/) {
  // Name alone (for "{id=sstfilter.bloom;bits_per_key=...}") or followed by
  // ":<anything>"; the factory itself parses and validates the suffix so the
  // error can name the bad value instead of RocksDB's "Could not load".
  library.AddFactory<const rocksdb::FilterPolicy>(
      rocksdb::ObjectLibrary::PatternEntry(kBloomPolicyName, true)
          .AddSeparator(":", true),
      [](const std::string& uri,
         std::unique_ptr<const rocksdb::FilterPolicy>* guard,
         std::string* errmsg) -> const rocksdb::FilterPolicy* {
        absl::StatusOr<BloomOptions> options = ParseBloomPolicyId(uri);
        absl::StatusOr<std::unique_ptr<rocksdb::FilterPolicy>> policy =
            options.ok() ? NewRocksDbBloomPolicy(*options) : options.status();
        if (!policy.ok()) {
          *errmsg = std::string(policy.status().message());
          return nullptr;
        }
        guard->reset(policy->release());
        return guard->get();
      });
  return 1;
}

void EnsureRocksDbFilterPoliciesRegistered() {
  static std::once_flag once;
  std::call_once(once, [] {
    rocksdb::ObjectLibrary::Default()->Register(RegisterRocksDbFilterPolicies, "");
  });
}

}  // namespace sstfilter
