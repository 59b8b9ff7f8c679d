#include "table/census/recovery_tree.h"

#include <filesystem>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "table/census/census_tree.h"
#include "table/census/open_db.h"
#include "table/census/silent_logger.h"
#include "table/census/table_listing_fs.h"

namespace sstfilter {

std::shared_ptr<const TreeRuns> ReadRecoveryTree(const std::string& db_path,
                                                 const std::string& column_family) {
  // No WAL replayed: the tree is the tables'.
  const std::unique_ptr<rocksdb::Env> env = NewTableListingEnv();
  rocksdb::DBOptions options;
  options.env = env.get();
  options.info_log = std::make_shared<SilentLogger>();
  options.max_open_files = 16;  // Tables are listed, not read.
  std::vector<std::string> names;
  if (!rocksdb::DB::ListColumnFamilies(options, db_path, &names).ok()) return nullptr;
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  for (const std::string& name : names) families.emplace_back(name, rocksdb::ColumnFamilyOptions());
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  std::unique_ptr<rocksdb::DB> db;
  std::error_code ignored;
  const std::string unused = std::filesystem::temp_directory_path(ignored).string();
  if (!OpenDbAsSecondary(options, db_path, unused, families, &handles, &db).ok()) return nullptr;
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  for (rocksdb::ColumnFamilyHandle* handle : handles) db->DestroyColumnFamilyHandle(handle);
  db.reset();
  CensusTree tree;
  tree.Rebuild(files, {}, {}, /*bytewise=*/true);
  return std::make_shared<const TreeRuns>(tree.Runs(column_family));
}

}  // namespace sstfilter
