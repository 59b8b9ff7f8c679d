#include "table/rocksdb/registration.h"

#include <memory>
#include <mutex>

#include "filter/filter_options.h"
#include "rocksdb/convenience.h"
#include "rocksdb/filter_policy.h"
#include "table/census/census_listener.h"
#include "table/rocksdb/rocksdb_filter_policy.h"

namespace sstfilter {

int RegisterRocksDbFilterPolicies(rocksdb::ObjectLibrary& library,
                                  const std::string& /*arg*/) {
  // Name alone (for "{id=sstfilter.bloom;bits_per_key=...}") or followed by
  // ":<anything>", even nothing: every string naming us reaches our parser,
  // which either gives the policy asked for or a rejected one that stops
  // DB::Open with a message naming the bad value (rocksdb_filter_policy.h).
  library.AddFactory<const rocksdb::FilterPolicy>(
      rocksdb::ObjectLibrary::PatternEntry(kBloomPolicyName, true)
          .AddSeparator(":", /*at_least_one=*/false),
      [](const std::string& uri, std::unique_ptr<const rocksdb::FilterPolicy>* guard,
         std::string* /*errmsg*/) -> const rocksdb::FilterPolicy* {
        guard->reset(NewRocksDbFilterPolicyFromId(uri).release());
        return guard->get();
      });
  // listeners=sstfilter.level_census (optimize_levels needs it).
  library.AddFactory<rocksdb::EventListener>(
      LevelCensusListener::kClassName(),
      [](const std::string& /*uri*/, std::unique_ptr<rocksdb::EventListener>* guard,
         std::string* /*errmsg*/) {
        guard->reset(new LevelCensusListener());
        return guard->get();
      });
  return 2;
}

void EnsureRocksDbFilterPoliciesRegistered() {
  static std::once_flag once;
  std::call_once(once, [] {
    rocksdb::ObjectLibrary::Default()->Register(RegisterRocksDbFilterPolicies, "");
  });
}

rocksdb::Status CreateFilterPolicyStrictly(const std::string& id,
                                           std::shared_ptr<const rocksdb::FilterPolicy>* policy) {
  EnsureRocksDbFilterPoliciesRegistered();
  rocksdb::ConfigOptions strict;
  strict.input_strings_escaped = false;
  strict.ignore_unknown_options = false;
  strict.ignore_unsupported_options = false;
  return rocksdb::FilterPolicy::CreateFromString(strict, id, policy);
}

}  // namespace sstfilter
