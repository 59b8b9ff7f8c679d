#include "table/rocksdb/allocator_usable_size.h"

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
  char* trial = new (std::nothrow) char[bytes];
  if (trial == nullptr) return bytes;  // Out of memory: no class to fill.
  const size_t usable = malloc_usable_size(trial);
  delete[] trial;
  return usable >= bytes ? usable : bytes;
#else
  return bytes;
#endif
}

}  // namespace sstfilter
