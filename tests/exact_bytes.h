// A copy of some bytes in a heap block of exactly their size, so that
// AddressSanitizer reports a read even one byte past the end (a std::string
// has spare capacity there that would hide it). Shared by the unit tests
// (tests/filter_test_util.h) and the fuzz targets (fuzz/fuzz_util.h).
#ifndef SSTFILTER_TESTS_EXACT_BYTES_H_
#define SSTFILTER_TESTS_EXACT_BYTES_H_

#include <cstring>
#include <memory>
#include <string_view>

namespace sstfilter::testing {

class ExactBytes {
 public:
  explicit ExactBytes(std::string_view bytes)
      : data_(new char[bytes.size()]), size_(bytes.size()) {
    if (size_ > 0) std::memcpy(data_.get(), bytes.data(), size_);
  }
  std::string_view view() const { return {data_.get(), size_}; }

 private:
  std::unique_ptr<char[]> data_;
  size_t size_;
};

}  // namespace sstfilter::testing

#endif  // SSTFILTER_TESTS_EXACT_BYTES_H_
