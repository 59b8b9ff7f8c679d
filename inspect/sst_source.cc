#include "inspect/sst_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_format.h"

namespace sstfilter {

namespace {

absl::Status CheckRange(uint64_t offset, uint64_t n, uint64_t size) {
  if (offset > size || n > size - offset) {
    return absl::OutOfRangeError(absl::StrFormat(
        "read of %d bytes at offset %d is past the end of the %d-byte file", n,
        offset, size));
  }
  return absl::OkStatus();
}

class StringSstSource final : public SstSource {
 public:
  explicit StringSstSource(std::string_view contents) : contents_(contents) {}
  uint64_t size() const override { return contents_.size(); }
  absl::StatusOr<std::string_view> Read(uint64_t offset, uint64_t n,
                                        std::string*) const override {
    if (absl::Status s = CheckRange(offset, n, size()); !s.ok()) return s;
    return contents_.substr(offset, n);
  }

 private:
  std::string_view contents_;
};

class FileSstSource final : public SstSource {
 public:
  FileSstSource(std::string path, int fd, uint64_t size)
      : path_(std::move(path)), fd_(fd), size_(size) {}
  ~FileSstSource() override { close(fd_); }
  uint64_t size() const override { return size_; }
  absl::StatusOr<std::string_view> Read(uint64_t offset, uint64_t n,
                                        std::string* scratch) const override {
    if (absl::Status s = CheckRange(offset, n, size_); !s.ok()) return s;
    scratch->resize(n);
    uint64_t done = 0;
    while (done < n) {
      const ssize_t got = pread(fd_, scratch->data() + done, n - done,
                                static_cast<off_t>(offset + done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        return absl::InternalError(absl::StrFormat(
            "%s: read at offset %d failed: %s", path_, offset + done,
            got == 0 ? "unexpected end of file" : std::strerror(errno)));
      }
      done += static_cast<uint64_t>(got);
    }
    return std::string_view(*scratch);
  }

 private:
  std::string path_;
  int fd_;
  uint64_t size_;
};

}  // namespace

std::unique_ptr<SstSource> NewStringSstSource(std::string_view contents) {
  return std::make_unique<StringSstSource>(contents);
}

absl::StatusOr<std::unique_ptr<SstSource>> OpenSstFileSource(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    const std::string msg = absl::StrFormat("%s: %s", path, std::strerror(err));
    if (err == ENOENT) return absl::NotFoundError(msg);
    if (err == EACCES) return absl::PermissionDeniedError(msg);
    return absl::InternalError(msg);
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: not a regular file", path));
  }
  return std::make_unique<FileSstSource>(path, fd, static_cast<uint64_t>(st.st_size));
}

}  // namespace sstfilter
