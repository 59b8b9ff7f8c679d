#include "bench/filter_copies.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace sstfilter::bench {

FilterCopies::FilterCopies(const BenchFilter& impl, std::string_view filter,
                           size_t min_total_bytes)
    : filter_bytes_(filter.size()) {
  constexpr size_t kAlign = 64;
  const size_t stride = (filter.size() + kAlign - 1) / kAlign * kAlign;
  const size_t copies = std::max<size_t>(1, (min_total_bytes + filter.size() - 1) / filter.size());
  buffer_.reset(static_cast<char*>(std::aligned_alloc(kAlign, stride * copies)));
  if (buffer_ == nullptr) {
    std::fprintf(stderr, "sstfilter_micro_bench: cannot allocate %zu bytes of filter copies\n",
                 stride * copies);
    std::exit(1);
  }
  readers_.reserve(copies);
  for (size_t c = 0; c < copies; ++c) {
    char* dst = buffer_.get() + c * stride;
    std::memcpy(dst, filter.data(), filter.size());
    readers_.push_back(impl.NewReader(std::string_view(dst, filter.size())));
  }
}

}  // namespace sstfilter::bench
