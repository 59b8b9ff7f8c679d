// Registrar of sstfilter built as a RocksDB plugin (sstfilter.mk names it as
// sstfilter_FUNC). RocksDB declares it extern "C" in its generated
// build_version.cc and calls it for every ObjectRegistry it creates, so
// "sstfilter.bloom..." resolves in that RocksDB's tools and in any program
// linked with it, with no call from the user. Not part of the standalone
// libraries: there, EnsureRocksDbFilterPoliciesRegistered() does this job.
#include <string>

#include "rocksdb/utilities/object_registry.h"
#include "table/rocksdb/registration.h"

extern "C" int sstfilter_RegisterRocksDbPlugin(rocksdb::ObjectLibrary& library,
                                                const std::string& arg) {
  return sstfilter::RegisterRocksDbFilterPolicies(library, arg);
}
