// What the builders of structured encodings (compact, banded) share: the
// key hashes they keep, the choice of body (structured/frame.h) and the
// Bloom bodies, and the sizes and FP models that follow from that choice.
//
// Builder is the derived builder (CRTP), Shape its structured body's shape
// (with FpRate()), kTag its encoding's tag. For the frame alone (private,
// with StructuredBuilder a friend), Builder provides:
//   std::optional<Shape> PlanBody(size_t n) const
//       the body planned for n distinct entries at bits_per_key_, nullopt
//       for counts the body does not take
//   static size_t BodyFilterSize(const Shape& s)
//       bytes of a filter with that body (its trailer and the frame too)
//   static std::optional<Shape> FitBody(const Shape& built, size_t bytes)
//       a built body at the widths that fill at most `bytes` (a filter
//       size), nullopt when none fit
//   bool BuildBody()
//       builds the body for hashes_ and sets shape_; false when it cannot
//       (then a fallback Bloom body). It may remove entries (repeated
//       hashes), and throw std::bad_alloc (a fallback too)
//   void WriteBody(const Shape& fitted, char* out)
//       writes the built body at FitBody's widths, all of the filter but
//       the frame: out[0, BodyFilterSize(fitted) - kFrameBytes)
//   void ReleaseBody()
//       frees what BuildBody holds
#ifndef SSTFILTER_FILTER_STRUCTURED_BUILDER_H_
#define SSTFILTER_FILTER_STRUCTURED_BUILDER_H_

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>
#include <string_view>

#include "filter/bloom_math.h"
#include "filter/builder_base.h"
#include "filter/cache_local/math.h"
#include "filter/hash_blocks.h"
#include "filter/key_hash64.h"
#include "filter/structured/frame.h"
#include "filter/structured/tagged_bloom.h"

namespace sstfilter {

// Collects key hashes, then writes one filter. Call order:
//   (AddKey | AddHash)* (FinishSize? FinishInto | Finish)
// Finish leaves the builder empty, ready for the next filter.
template <typename Builder, typename Shape, unsigned char kTag>
class StructuredBuilder : public BuilderBase<Builder> {
  using Base = BuilderBase<Builder>;

 public:
  // The next filter is written at bits_per_key; entries added are kept.
  // REQUIRES: 0 < bits_per_key <= kMaxBitsPerKey.
  void Retune(double bits_per_key) {
    this->SetSettings(bits_per_key, this->num_probes_);
    planned_ = false;
  }

  using Hash = uint64_t;
  static Hash HashKey(std::string_view key) { return KeyHash64(key); }

  void AddKey(std::string_view key) { AddHash(HashKey(key)); }
  // A hash equal to the previous one is dropped (HashBlocks::AddUnlessRepeat);
  // the encoding's header says what other repeats cost.
  void AddHash(Hash h) {
    if (hashes_.AddUnlessRepeat(h)) planned_ = false;
  }
  size_t NumEntries() const { return hashes_.size(); }
  template <typename Visit>
  void ForEachHash(Visit&& visit) const {
    hashes_.ForEach(visit);
  }

  // Builds the filter (the expensive part) and returns its exact size:
  // the structured body's (FilterSize(entries), or what the build made of
  // it), or a Bloom body's.
  size_t FinishSize();
  using Base::FinishInto;  // FinishInto(out): the FinishSize() bytes.

  // Other sizes for the filter FinishSize built, for
  // optimize_filters_for_memory (filter/memory_sizing.h); FinishSize first.
  // The largest size <= bytes FinishInto(out, size) writes, 0 if none: the
  // structured body at other widths (FitBody), a Bloom body at another line
  // count. FittingBuiltSize(FinishSize()) is FinishSize().
  size_t FittingBuiltSize(size_t bytes);
  // The model FP rate of the filter written at a size FittingBuiltSize gave.
  double BuiltFpRate(size_t bytes);
  // Writes the filter at such a size and resets the builder.
  void FinishInto(char* out, size_t bytes);

  // The structured body planned for n distinct entries where it is smaller
  // than the Bloom body, else nullopt (a Bloom body).
  std::optional<Shape> PlannedShape(size_t n) const {
    const std::optional<Shape> s = self().PlanBody(n);
    if (s && Builder::BodyFilterSize(*s) < TaggedBloomSize(n, this->bits_per_key_)) return s;
    return std::nullopt;
  }
  // Bytes of the filter planned for n distinct entries.
  size_t FilterSize(size_t n) const {
    const std::optional<Shape> s = PlannedShape(n);
    return s ? Builder::BodyFilterSize(*s) : TaggedBloomSize(n, this->bits_per_key_);
  }
  // Largest n with FilterSize(n) <= bytes (0 if there is none).
  size_t MaxEntriesForSize(size_t bytes) const {
    if (bytes < FilterSize(0)) return 0;
    // FilterSize grows with n (both bodies' sizes do), tested per encoding.
    return LargestFittingEntries([&](size_t n) { return FilterSize(n) <= bytes; });
  }
  // The FP model of the filter planned for n keys, at its size and at a
  // filter size `bytes` (the planned body at the widths that fill it).
  double PlannedFpRate(size_t n) const {
    const std::optional<Shape> s = PlannedShape(n);
    return s ? s->FpRate() : CacheLocalExpectedFpRate(n, this->bits_per_key_);
  }
  double PlannedFpRate(size_t n, size_t bytes) const {
    const std::optional<Shape> s = PlannedShape(n);
    return s ? FittedFpRate(*s, bytes) : TaggedBloomFpRate(n, bytes, this->bits_per_key_);
  }

  // Filters that fell back to a Bloom body since construction.
  uint64_t num_fallbacks() const { return num_fallbacks_; }
  // Most bytes held besides the output while building the last filter.
  size_t last_temp_bytes() const { return last_temp_bytes_; }

 protected:
  // REQUIRES: 0 < bits_per_key <= kMaxBitsPerKey.
  StructuredBuilder(double bits_per_key, int num_probes) : Base(bits_per_key, num_probes) {}

  HashBlocks hashes_;
  Shape shape_;  // Of the built body.
  size_t last_temp_bytes_ = 0;

 private:
  const Builder& self() const { return static_cast<const Builder&>(*this); }
  Builder& self() { return static_cast<Builder&>(*this); }
  static double FittedFpRate(const Shape& s, size_t bytes) {
    const std::optional<Shape> fitted = Builder::FitBody(s, bytes);
    return fitted ? fitted->FpRate() : 1.0;
  }
  bool TryBuild();
  void Reset();

  // What FinishSize decided.
  bool planned_ = false;
  unsigned char body_ = kSmallBloomBody;
  size_t size_ = 0;
  uint64_t num_fallbacks_ = 0;
};

template <typename Builder, typename Shape, unsigned char kTag>
size_t StructuredBuilder<Builder, Shape, kTag>::FinishSize() {
  if (planned_) return size_;
  last_temp_bytes_ = hashes_.AllocatedBytes();
  const bool built = PlannedShape(hashes_.size()) && TryBuild();
  if (!built) self().ReleaseBody();
  // A failed build may have removed entries: a Bloom body may then be the
  // planned one.
  body_ = built                          ? kStructuredBody
          : PlannedShape(hashes_.size()) ? kFallbackBloomBody
                                         : kSmallBloomBody;
  size_ = built ? Builder::BodyFilterSize(shape_)
                : TaggedBloomSize(hashes_.size(), this->bits_per_key_);
  planned_ = true;
  return size_;
}

template <typename Builder, typename Shape, unsigned char kTag>
bool StructuredBuilder<Builder, Shape, kTag>::TryBuild() {
  try {
    return self().BuildBody();
  } catch (const std::bad_alloc&) {
    return false;
  }
}

template <typename Builder, typename Shape, unsigned char kTag>
size_t StructuredBuilder<Builder, Shape, kTag>::FittingBuiltSize(size_t bytes) {
  FinishSize();
  if (body_ != kStructuredBody) {
    return FittingTaggedBloomSize(hashes_.size(), this->bits_per_key_, bytes);
  }
  const std::optional<Shape> fitted = Builder::FitBody(shape_, bytes);
  return fitted ? Builder::BodyFilterSize(*fitted) : 0;
}

template <typename Builder, typename Shape, unsigned char kTag>
double StructuredBuilder<Builder, Shape, kTag>::BuiltFpRate(size_t bytes) {
  FinishSize();
  if (body_ != kStructuredBody) {
    return TaggedBloomFpRate(hashes_.size(), bytes, this->bits_per_key_);
  }
  return FittedFpRate(shape_, bytes);
}

template <typename Builder, typename Shape, unsigned char kTag>
void StructuredBuilder<Builder, Shape, kTag>::FinishInto(char* out, size_t bytes) {
  FinishSize();
  assert(bytes != 0 && FittingBuiltSize(bytes) == bytes);
  if (body_ == kStructuredBody) {
    self().WriteBody(*Builder::FitBody(shape_, bytes), out);
  } else {
    if (body_ == kFallbackBloomBody) ++num_fallbacks_;
    last_temp_bytes_ = std::max(last_temp_bytes_, 2 * hashes_.AllocatedBytes());
    WriteBloomBody(hashes_, this->bits_per_key_, out, bytes - kFrameBytes);
  }
  out[bytes - 2] = static_cast<char>(body_);
  out[bytes - 1] = static_cast<char>(kTag);
  Reset();
}

template <typename Builder, typename Shape, unsigned char kTag>
void StructuredBuilder<Builder, Shape, kTag>::Reset() {
  hashes_.Release();
  self().ReleaseBody();
  planned_ = false;
}

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_STRUCTURED_BUILDER_H_
