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

// A rocksdb::RegistrarFunc: adds our filter policy factories to library and
// returns how many it added. The factory accepts
//   sstfilter.bloom[:<bits_per_key>[:<format>]]
// and rejects a bad bits_per_key or format with a message naming the value.
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
