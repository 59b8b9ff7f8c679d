// Orderings RocksDB guarantees that ThreadSanitizer cannot see.
//
// RocksDB destroys a FilterBitsReader only after every call into it has
// returned (it keeps the filter block, and so the reader, pinned while a
// lookup uses it). It orders the two with reference counts: atomics inside
// librocksdb, invisible to TSan when librocksdb is not instrumented (tools/dev
// tsan-test runs against Debian's). Without these calls TSan reports the
// reader's destruction racing with its last MayMatch.
//
// Each call into a reader ends with UseEnds(reader), its destructor begins
// with DestroyBegins(reader): a release and an acquire on the reader's
// address. Calls are not ordered with each other by this, so a race between
// two lookups, or on anything but the destroyed reader, is still reported.
// Empty outside TSan builds.
#ifndef SSTFILTER_TABLE_ROCKSDB_HOST_ORDERING_H_
#define SSTFILTER_TABLE_ROCKSDB_HOST_ORDERING_H_

#if defined(__SANITIZE_THREAD__)
#define SSTFILTER_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SSTFILTER_UNDER_TSAN 1
#endif
#endif

#ifdef SSTFILTER_UNDER_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace sstfilter::host_ordering {

inline void UseEnds([[maybe_unused]] const void* object) {
#ifdef SSTFILTER_UNDER_TSAN
  __tsan_release(const_cast<void*>(object));
#endif
}

inline void DestroyBegins([[maybe_unused]] const void* object) {
#ifdef SSTFILTER_UNDER_TSAN
  __tsan_acquire(const_cast<void*>(object));
#endif
}

}  // namespace sstfilter::host_ordering

#endif  // SSTFILTER_TABLE_ROCKSDB_HOST_ORDERING_H_
