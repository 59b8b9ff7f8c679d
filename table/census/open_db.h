// rocksdb::DB::Open (and OpenAsSecondary, OpenForReadOnly) for every
// RocksDB version sstfilter builds against: 9.11 added overloads that take
// std::unique_ptr<DB>*, 11.0 removed those taking DB**. Our tools,
// benchmarks, tests and the recovery tree (recovery_tree.h) open DBs
// through these.
#ifndef SSTFILTER_TABLE_CENSUS_OPEN_DB_H_
#define SSTFILTER_TABLE_CENSUS_OPEN_DB_H_

#include <memory>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/version.h"

#define SSTFILTER_ROCKSDB_OPEN_TAKES_UNIQUE_PTR \
  (ROCKSDB_MAJOR > 9 || (ROCKSDB_MAJOR == 9 && ROCKSDB_MINOR >= 11))

namespace sstfilter {

inline rocksdb::Status OpenDb(const rocksdb::Options& options, const std::string& path,
                              std::unique_ptr<rocksdb::DB>* db) {
#if SSTFILTER_ROCKSDB_OPEN_TAKES_UNIQUE_PTR
  return rocksdb::DB::Open(options, path, db);
#else
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, path, &raw);
  db->reset(raw);
  return s;
#endif
}

inline rocksdb::Status OpenDb(const rocksdb::DBOptions& options, const std::string& path,
                              const std::vector<rocksdb::ColumnFamilyDescriptor>& families,
                              std::vector<rocksdb::ColumnFamilyHandle*>* handles,
                              std::unique_ptr<rocksdb::DB>* db) {
#if SSTFILTER_ROCKSDB_OPEN_TAKES_UNIQUE_PTR
  return rocksdb::DB::Open(options, path, families, handles, db);
#else
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, path, families, handles, &raw);
  db->reset(raw);
  return s;
#endif
}

// DB::OpenAsSecondary with column families: a read-only view of a DB that
// another process may be writing (it keeps its own state in secondary_path).
inline rocksdb::Status OpenDbAsSecondary(
    const rocksdb::DBOptions& options, const std::string& path, const std::string& secondary_path,
    const std::vector<rocksdb::ColumnFamilyDescriptor>& families,
    std::vector<rocksdb::ColumnFamilyHandle*>* handles, std::unique_ptr<rocksdb::DB>* db) {
#if SSTFILTER_ROCKSDB_OPEN_TAKES_UNIQUE_PTR
  return rocksdb::DB::OpenAsSecondary(options, path, secondary_path, families, handles, db);
#else
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s =
      rocksdb::DB::OpenAsSecondary(options, path, secondary_path, families, handles, &raw);
  db->reset(raw);
  return s;
#endif
}

// DB::OpenForReadOnly with column families.
inline rocksdb::Status OpenDbForReadOnly(
    const rocksdb::DBOptions& options, const std::string& path,
    const std::vector<rocksdb::ColumnFamilyDescriptor>& families,
    std::vector<rocksdb::ColumnFamilyHandle*>* handles, std::unique_ptr<rocksdb::DB>* db) {
#if SSTFILTER_ROCKSDB_OPEN_TAKES_UNIQUE_PTR
  return rocksdb::DB::OpenForReadOnly(options, path, families, handles, db);
#else
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::OpenForReadOnly(options, path, families, handles, &raw);
  db->reset(raw);
  return s;
#endif
}

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_OPEN_DB_H_
