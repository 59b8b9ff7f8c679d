// What every encoding's reader shares: the state its constructor found in
// a filter's bytes, and the fixed answer of a filter it does not probe.
#ifndef SSTFILTER_FILTER_READER_BASE_H_
#define SSTFILTER_FILTER_READER_BASE_H_

#include <algorithm>
#include <cstddef>

#include "filter/encoding_info.h"

namespace sstfilter {

class ReaderBase {
 public:
  FilterState state() const { return state_; }
  int num_probes() const { return num_probes_; }  // 0 unless kProbe.

 protected:
  bool Probes() const { return state_ == FilterState::kProbe; }
  // Every answer of a filter that is not probed.
  bool FixedAnswer() const { return state_ == FilterState::kMatchEverything; }
  void FillFixedAnswer(size_t n, bool* out) const { std::fill(out, out + n, FixedAnswer()); }

  const char* array_ = nullptr;  // Set when kProbe.
  int num_probes_ = 0;
  // Fails open until the constructor has checked the bytes.
  FilterState state_ = FilterState::kMatchEverything;
};

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_READER_BASE_H_
