#include "table/census/table_listing_fs.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "rocksdb/file_system.h"
#include "table/census/dir_file.h"

namespace sstfilter {

namespace {

bool IsWal(const std::string& name) {
  return name.size() > 4 && name.compare(name.size() - 4, 4, ".log") == 0;
}

class TableListingFileSystem final : public rocksdb::FileSystemWrapper {
 public:
  explicit TableListingFileSystem(const std::shared_ptr<rocksdb::FileSystem>& base)
      : FileSystemWrapper(base) {}
  const char* Name() const override { return "sstfilter.TableListingFileSystem"; }

  rocksdb::IOStatus GetChildren(const std::string& dir, const rocksdb::IOOptions& options,
                                std::vector<std::string>* result,
                                rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus s = target()->GetChildren(dir, options, result, dbg);
    result->erase(std::remove_if(result->begin(), result->end(), IsWal), result->end());
    return s;
  }

  rocksdb::IOStatus NewSequentialFile(const std::string& path,
                                      const rocksdb::FileOptions& options,
                                      std::unique_ptr<rocksdb::FSSequentialFile>* result,
                                      rocksdb::IODebugContext* dbg) override {
    if (rocksdb::IOStatus s = Regular(path); !s.ok()) return s;
    return target()->NewSequentialFile(path, options, result, dbg);
  }

  rocksdb::IOStatus NewRandomAccessFile(const std::string& path,
                                        const rocksdb::FileOptions& options,
                                        std::unique_ptr<rocksdb::FSRandomAccessFile>* result,
                                        rocksdb::IODebugContext* dbg) override {
    if (rocksdb::IOStatus s = Regular(path); !s.ok()) return s;
    return target()->NewRandomAccessFile(path, options, result, dbg);
  }

 private:
  static rocksdb::IOStatus Regular(const std::string& path) {
    const absl::Status s = CheckRegularIfPresent(path);
    return s.ok() ? rocksdb::IOStatus::OK() : rocksdb::IOStatus::IOError(std::string(s.message()));
  }
};

}  // namespace

std::unique_ptr<rocksdb::Env> NewTableListingEnv() {
  return rocksdb::NewCompositeEnv(
      std::make_shared<TableListingFileSystem>(rocksdb::FileSystem::Default()));
}

}  // namespace sstfilter
