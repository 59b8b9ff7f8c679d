// Makes "sstfilter.bloom..." ids resolvable in RocksDB option strings,
// OPTIONS files and FilterPolicy::CreateFromString.
#ifndef SSTFILTER_TABLE_ROCKSDB_REGISTRATION_H_
#define SSTFILTER_TABLE_ROCKSDB_REGISTRATION_H_

#include <memory>
#include <string>

#include "rocksdb/filter_policy.h"
#include "rocksdb/status.h"
#include "rocksdb/utilities/object_registry.h"

namespace sstfilter {

// A rocksdb::RegistrarFunc: adds our factories to library and returns how
// many it added: the filter policy's, which accepts every
// sstfilter.bloom[:...] id (filter/filter_options.h) and rejects a bad one
// with a message naming the value, and the level census listener's
// (sstfilter.level_census, table/census/census_listener.h).
int RegisterRocksDbFilterPolicies(rocksdb::ObjectLibrary& library,
                                  const std::string& arg);

// Registers into rocksdb::ObjectLibrary::Default(), once per process
// (thread-safe). libsstfilter_rocksdb.so calls this when it is loaded.
__attribute__((visibility("default"))) void EnsureRocksDbFilterPoliciesRegistered();

// rocksdb::FilterPolicy::CreateFromString with our ids registered and
// nothing ignored: an unknown or unsupported option is an error, not a
// silent default. *policy may be null on success (RocksDB's "" and "nullptr").
rocksdb::Status CreateFilterPolicyStrictly(const std::string& id,
                                           std::shared_ptr<const rocksdb::FilterPolicy>* policy);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_ROCKSDB_REGISTRATION_H_
