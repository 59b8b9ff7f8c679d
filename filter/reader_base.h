// What every encoding's reader shares: the state its constructor found in
// a filter's bytes, and the fixed answer of a filter it does not probe; and
// the shape of an encoding's parse of its bytes, which the reader's
// constructor and its one-shot query (E::Reader::MayMatchOnce) both take.
#ifndef SSTFILTER_FILTER_READER_BASE_H_
#define SSTFILTER_FILTER_READER_BASE_H_

#include <algorithm>
#include <cstddef>

#include "filter/encoding_info.h"

namespace sstfilter {

// A filter's bytes as its encoding's parse reads them (ParseLevelDbFilter,
// ParseCacheLocalFilter, ParseCompactFuse, beside their readers): the
// answer every key gets, or (kProbe) the layout its probes need. A parse
// is pure: it looks at no key and allocates nothing.
template <typename Layout>
struct ParsedFilter {
  FilterState state = FilterState::kMatchEverything;  // Fails open.
  Layout layout{};  // Set when kProbe.

  // The fixed answer of a filter that is not probed, else probe(layout).
  template <typename Probe>
  bool Answer(Probe&& probe) const {
    switch (state) {
      case FilterState::kProbe:
        return probe(layout);
      case FilterState::kMatchNothing:
        return false;
      case FilterState::kMatchEverything:
        break;
    }
    return true;
  }
};

class ReaderBase {
 public:
  FilterState state() const { return state_; }
  int num_probes() const { return num_probes_; }  // 0 unless kProbe.

 protected:
  bool Probes() const { return state_ == FilterState::kProbe; }
  // Every answer of a filter that is not probed.
  bool FixedAnswer() const { return state_ == FilterState::kMatchEverything; }
  void FillFixedAnswer(size_t n, bool* out) const { std::fill(out, out + n, FixedAnswer()); }
  // Takes a Bloom parse's state, and when kProbe its array and k (a layout
  // with .array and .k); returns whether the filter is probed.
  template <typename Layout>
  bool TakeParsed(const ParsedFilter<Layout>& parsed) {
    state_ = parsed.state;
    if (!Probes()) return false;
    array_ = parsed.layout.array;
    num_probes_ = parsed.layout.k;
    return true;
  }

  const char* array_ = nullptr;  // Set when kProbe.
  int num_probes_ = 0;
  // Fails open until the constructor has checked the bytes.
  FilterState state_ = FilterState::kMatchEverything;
};

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_READER_BASE_H_
