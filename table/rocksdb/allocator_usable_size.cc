#include "table/rocksdb/allocator_usable_size.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__GLIBC__)
#include <malloc.h>
#define SSTFILTER_HAVE_MALLOC_USABLE_SIZE 1
#endif

namespace sstfilter {

bool AllocatorReportsUsableSize() {
#ifdef SSTFILTER_HAVE_MALLOC_USABLE_SIZE
  return true;
#else
  return false;
#endif
}

size_t AllocatorUsableSize(size_t bytes) {
#ifdef SSTFILTER_HAVE_MALLOC_USABLE_SIZE
  // operator new, as RocksDB's blocks and our filter buffers are allocated.
  // glibc may hand out a chunk one class larger than the request's (when
  // splitting a free chunk would leave a remainder too small to keep), so
  // one trial can overstate the class: the least of a few trials held at
  // once is the class.
  constexpr int kTrials = 3;
  char* trials[kTrials];
  size_t usable = SIZE_MAX;
  for (char*& trial : trials) {
    trial = new (std::nothrow) char[bytes];
    if (trial != nullptr) usable = std::min(usable, malloc_usable_size(trial));
  }
  for (char* trial : trials) delete[] trial;
  return usable != SIZE_MAX && usable >= bytes ? usable : bytes;  // No memory: no class.
#else
  return bytes;
#endif
}

}  // namespace sstfilter
