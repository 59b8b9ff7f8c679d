#include "table/census/dir_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <random>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "rocksdb/env.h"

namespace sstfilter {

namespace {

// What a file of mode `mode` is, for a message.
const char* KindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

absl::Status ErrnoStatus(int err, const std::string& what) {
  const std::string message = absl::StrCat(what, ": ", std::strerror(err));
  return err == ENOENT ? absl::NotFoundError(message) : absl::UnknownError(message);
}

absl::Status TooLarge(const std::string& path, size_t max_bytes) {
  return absl::FailedPreconditionError(
      absl::StrFormat("%s is larger than the %d bytes read of it", path, max_bytes));
}

// Closes a descriptor when it goes out of scope.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

// A name no other writer picks: 16 random hex digits.
std::string FreshNameOf(const std::string& path) {
  thread_local std::mt19937_64 draw{std::random_device{}()};
  return absl::StrFormat("%s.%016x%s", path, draw(), kFreshSuffix);
}

absl::Status WriteAll(int fd, std::string_view text, const std::string& path) {
  while (!text.empty()) {
    const ssize_t n = write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return ErrnoStatus(n < 0 ? errno : EIO, absl::StrCat("writing ", path));
    text.remove_prefix(static_cast<size_t>(n));
  }
  return absl::OkStatus();
}

absl::Status FromRocksDb(const rocksdb::Status& s) {
  if (s.ok()) return absl::OkStatus();
  return s.IsNotFound() ? absl::NotFoundError(s.ToString()) : absl::UnknownError(s.ToString());
}

absl::StatusOr<std::string> ReadThroughEnv(rocksdb::Env* env, const std::string& path,
                                           size_t max_bytes) {
  // Some Envs say a missing file's size is an IOError: asked first.
  if (absl::Status s = FromRocksDb(env->FileExists(path)); !s.ok()) return s;
  uint64_t size = 0;
  if (absl::Status s = FromRocksDb(env->GetFileSize(path, &size)); !s.ok()) return s;
  if (size > max_bytes) return TooLarge(path, max_bytes);
  std::unique_ptr<rocksdb::SequentialFile> file;
  if (absl::Status s = FromRocksDb(env->NewSequentialFile(path, &file, rocksdb::EnvOptions()));
      !s.ok()) {
    return s;
  }
  std::string text(max_bytes + 1, '\0');
  size_t have = 0;
  while (have < text.size()) {
    rocksdb::Slice got;
    if (absl::Status s = FromRocksDb(file->Read(text.size() - have, &got, &text[have])); !s.ok()) {
      return s;
    }
    if (got.size() == 0) break;
    if (got.data() != &text[have]) std::memmove(&text[have], got.data(), got.size());
    have += got.size();
  }
  if (have > max_bytes) return TooLarge(path, max_bytes);
  text.resize(have);
  return text;
}

absl::Status ReplaceThroughEnv(rocksdb::Env* env, const std::string& path, std::string_view text) {
  const std::string fresh = FreshNameOf(path);
  absl::Status s = FromRocksDb(rocksdb::WriteStringToFile(
      env, rocksdb::Slice(text.data(), text.size()), fresh, /*should_sync=*/false));
  if (s.ok()) s = FromRocksDb(env->RenameFile(fresh, path));
  if (!s.ok()) env->DeleteFile(fresh).PermitUncheckedError();
  return s;
}

}  // namespace

absl::StatusOr<std::string> ReadRegularFile(const std::string& path, size_t max_bytes) {
  absl::StatusOr<std::string> text = ReadRegularFileHead(path, max_bytes + 1);
  if (text.ok() && text->size() > max_bytes) return TooLarge(path, max_bytes);
  return text;
}

absl::Status CheckRegularIfPresent(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(path, " is ", KindOf(st.st_mode)));
}

absl::StatusOr<std::string> ReadRegularFileHead(const std::string& path, size_t max_bytes) {
  Fd file{open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) return ErrnoStatus(errno, absl::StrCat("opening ", path));
  struct stat st;
  if (fstat(file.fd, &st) != 0) return ErrnoStatus(errno, absl::StrCat("reading ", path));
  if (!S_ISREG(st.st_mode)) {
    return absl::FailedPreconditionError(absl::StrCat(path, " is ", KindOf(st.st_mode)));
  }
  // Sized by fstat, but read to the bound: the file may grow meanwhile.
  std::string text(std::min<uint64_t>(static_cast<uint64_t>(st.st_size), max_bytes), '\0');
  size_t have = 0;
  while (have < max_bytes) {
    if (have == text.size()) text.resize(std::min<size_t>(max_bytes, 2 * have + 4096));
    const ssize_t n = read(file.fd, &text[have], text.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ErrnoStatus(errno, absl::StrCat("reading ", path));
    if (n == 0) break;
    have += static_cast<size_t>(n);
  }
  text.resize(have);
  return text;
}

absl::Status ReplaceFile(const std::string& path, std::string_view text) {
  std::string fresh;
  Fd file;
  // A clash with a name already there (EEXIST) draws again.
  for (int attempt = 0; attempt < 4 && file.fd < 0; ++attempt) {
    fresh = FreshNameOf(path);
    file.fd = open(fresh.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (file.fd < 0 && errno != EEXIST) break;
  }
  if (file.fd < 0) return ErrnoStatus(errno, absl::StrCat("creating ", fresh));
  absl::Status s = WriteAll(file.fd, text, fresh);
  const int closed = close(file.fd);
  file.fd = -1;
  if (s.ok() && closed != 0) s = ErrnoStatus(errno, absl::StrCat("closing ", fresh));
  if (s.ok() && rename(fresh.c_str(), path.c_str()) != 0) {
    s = ErrnoStatus(errno, absl::StrCat("renaming ", fresh, " to ", path));
  }
  if (!s.ok()) unlink(fresh.c_str());
  return s;
}

absl::StatusOr<std::string> ReadRegularFile(rocksdb::Env* env, const std::string& path,
                                            size_t max_bytes) {
  if (env == nullptr || env == rocksdb::Env::Default()) return ReadRegularFile(path, max_bytes);
  return ReadThroughEnv(env, path, max_bytes);
}

absl::Status ReplaceFile(rocksdb::Env* env, const std::string& path, std::string_view text) {
  if (env == nullptr || env == rocksdb::Env::Default()) return ReplaceFile(path, text);
  return ReplaceThroughEnv(env, path, text);
}

bool IsFreshFileOf(absl::string_view name, absl::string_view base) {
  if (!absl::ConsumePrefix(&name, base) || !absl::ConsumePrefix(&name, ".") ||
      !absl::ConsumeSuffix(&name, kFreshSuffix)) {
    return false;
  }
  if (name.size() != 16) return false;
  for (const char c : name) {
    if (!absl::ascii_isxdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

std::string PrintableExcerpt(absl::string_view text, size_t max_chars) {
  std::string out = absl::CHexEscape(text);
  if (out.size() > max_chars) out = absl::StrCat(out.substr(0, max_chars), "...");
  return out;
}

}  // namespace sstfilter
