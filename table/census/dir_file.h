// Files sstfilter reads from or keeps in a DB's directory: the census's
// traffic file (traffic_file.h), and the advisor's reads of it and of the
// DB's LOG. A DB directory is input: any name in it may be a FIFO, a
// device, a symlink, a directory or a file far larger than the one written
// there. So:
// - a file is read only if it is a regular file once opened (opened with
//   O_NONBLOCK, so that a FIFO does not block the open; fstat then says
//   what it is), and only up to a stated size;
// - a file is written under a fresh name in the same directory
//   (O_CREAT | O_EXCL | O_NOFOLLOW: never an existing file, never through a
//   symlink), then renamed over the old name (rename replaces a symlink or a
//   FIFO there, never writes through it; a directory there fails it).
// A DB on an Env of its own (not rocksdb::Env::Default()) is read and
// written through that Env, which has no file types: there the size bound
// holds, the type check is the Env's.
#ifndef SSTFILTER_TABLE_CENSUS_DIR_FILE_H_
#define SSTFILTER_TABLE_CENSUS_DIR_FILE_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace rocksdb {
class Env;
}

namespace sstfilter {

// The text of the regular file at `path`, of at most `max_bytes`.
// NotFound: no such file. FailedPrecondition: not a regular file (a FIFO, a
// device, a directory, a socket), or larger than max_bytes; each message
// names the path and what it is. Other errors: the system's.
absl::StatusOr<std::string> ReadRegularFile(const std::string& path, size_t max_bytes);
// The same, but a larger file gives its first `max_bytes` (a LOG whose
// head is what is read).
absl::StatusOr<std::string> ReadRegularFileHead(const std::string& path, size_t max_bytes);

// OK if `path` names a regular file (through any symlinks) or nothing;
// else FailedPrecondition naming what it is ("PATH is a FIFO"): what to
// check before a reader that would block on a FIFO (RocksDB's) opens it.
absl::Status CheckRegularIfPresent(const std::string& path);

// Writes `text` to a fresh file beside `path` and renames it over `path`;
// on any failure removes the fresh file and says why. The fresh file's name
// is `path` + "." + 16 hex digits + kFreshSuffix.
absl::Status ReplaceFile(const std::string& path, std::string_view text);
inline constexpr char kFreshSuffix[] = ".tmp";

// The same through `env`: the POSIX calls above where env is
// rocksdb::Env::Default(), else env's own (size bound, fresh name, rename).
absl::StatusOr<std::string> ReadRegularFile(rocksdb::Env* env, const std::string& path,
                                            size_t max_bytes);
absl::Status ReplaceFile(rocksdb::Env* env, const std::string& path, std::string_view text);

// Whether `name` (a name in a directory, no slash) is one ReplaceFile
// would give a fresh file of `base`'s: what a process that stopped between
// the write and the rename leaves.
bool IsFreshFileOf(absl::string_view name, absl::string_view base);

// `text` as printable ASCII for a log line or an error: at most
// `max_chars` of it, other bytes as C escapes (a foreign file's bytes never
// reach a LOG raw).
std::string PrintableExcerpt(absl::string_view text, size_t max_chars);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_DIR_FILE_H_
