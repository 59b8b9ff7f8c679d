// Random-access bytes of a table file, for the SST format parser
// (sst_footer.h, block_reader.h): a file on disk, or a string in tests.
#ifndef SSTFILTER_INSPECT_SST_SOURCE_H_
#define SSTFILTER_INSPECT_SST_SOURCE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace sstfilter {

class SstSource {
 public:
  virtual ~SstSource() = default;
  // Size of the whole file in bytes.
  virtual uint64_t size() const = 0;
  // Reads [offset, offset + n) into *scratch and returns a view of it (or of
  // memory the source owns). Out-of-range requests are an OutOfRange error,
  // never a short read.
  virtual absl::StatusOr<std::string_view> Read(uint64_t offset, uint64_t n,
                                                std::string* scratch) const = 0;
};

// The bytes of `contents`, which must outlive the source.
std::unique_ptr<SstSource> NewStringSstSource(std::string_view contents);

// The file at `path`, read with pread. NotFound / PermissionDenied / Internal
// errors name the path.
absl::StatusOr<std::unique_ptr<SstSource>> OpenSstFileSource(const std::string& path);

}  // namespace sstfilter

#endif  // SSTFILTER_INSPECT_SST_SOURCE_H_
