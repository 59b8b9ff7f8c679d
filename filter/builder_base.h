// What every encoding's builder shares: its settings, and Finish into a
// string on top of the encoding's FinishInto.
#ifndef SSTFILTER_FILTER_BUILDER_BASE_H_
#define SSTFILTER_FILTER_BUILDER_BASE_H_

#include <cassert>
#include <cstddef>
#include <string>

#include "filter/bloom_math.h"

namespace sstfilter {

// Builder is the derived class; it provides Retune(bits_per_key) (through
// SetSettings), NumEntries(), FilterSize(n),
// FittingFilterSize(n, bytes) and FinishInto(char* out, size_t bytes).
// FinishSize and FittingBuiltSize follow from those unless Builder hides
// them with its own (an encoding whose size is known only once the filter
// is built: the structured ones, structured/builder.h).
template <typename Builder>
class BuilderBase {
 public:
  double bits_per_key() const { return bits_per_key_; }
  int num_probes() const { return num_probes_; }

  // Bytes the next FinishInto writes.
  size_t FinishSize() {
    Builder& self = static_cast<Builder&>(*this);
    return self.FilterSize(self.NumEntries());
  }

  // The largest size <= bytes the added entries' filter can be written at
  // (encoding_contract.h), for an encoding whose sizes follow from the entry
  // count: its FittingFilterSize(NumEntries(), bytes). An encoding whose
  // sizes are known once built (structured/builder.h) hides it with its own.
  size_t FittingBuiltSize(size_t bytes) const {
    const Builder& self = static_cast<const Builder&>(*this);
    return self.FittingFilterSize(self.NumEntries(), bytes);
  }

  // Writes the filter into out[0, FinishSize()) and resets the builder. The
  // bytes need not be initialised.
  void FinishInto(char* out) {
    Builder& self = static_cast<Builder&>(*this);
    self.FinishInto(out, self.FinishSize());
  }

  // Appends the filter for the added entries to *dst and resets the builder.
  void Finish(std::string* dst) {
    Builder& self = static_cast<Builder&>(*this);
    const size_t start = dst->size();
    dst->resize(start + self.FinishSize());
    self.FinishInto(dst->data() + start);
  }

 protected:
  // REQUIRES: 0 < bits_per_key <= kMaxBitsPerKey.
  BuilderBase(double bits_per_key, int num_probes)
      : bits_per_key_(bits_per_key), num_probes_(num_probes) {
    assert(bits_per_key > 0 && bits_per_key <= kMaxBitsPerKey);
  }

  // For the builder's Retune: the new settings. REQUIRES as the constructor.
  void SetSettings(double bits_per_key, int num_probes) {
    assert(bits_per_key > 0 && bits_per_key <= kMaxBitsPerKey);
    bits_per_key_ = bits_per_key;
    num_probes_ = num_probes;
  }

  double bits_per_key_;
  int num_probes_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BUILDER_BASE_H_
