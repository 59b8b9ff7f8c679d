// What the readers of structured encodings (compact, banded) share: the
// frame's parse (structured/frame.h), the Bloom body's reader, and the
// answers of every body but the structured one.
//
// Reader is the derived reader (CRTP), Layout what its structured body's
// parse gives (ParsedFilter<Layout>, with a `shape`), kTag its encoding's
// tag. For its structured body, Reader provides (private, with
// StructuredReader a friend):
//   bool BodyMayMatch(uint64_t h) const
//   template <typename KeyAt>
//   void BodyMayMatchEach(size_t n, KeyAt key_at, bool* out) const
#ifndef SSTFILTER_FILTER_STRUCTURED_READER_H_
#define SSTFILTER_FILTER_STRUCTURED_READER_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "absl/base/attributes.h"
#include "absl/types/span.h"
#include "filter/cache_local/bloom.h"
#include "filter/key_hash64.h"
#include "filter/reader_base.h"
#include "filter/simd_level.h"
#include "filter/structured/frame.h"
#include "filter/structured/tagged_bloom.h"

namespace sstfilter {

// Queries one filter. Parses the trailer once; the filter bytes must outlive
// the reader. Safe to use from several threads at once.
template <typename Reader, typename Layout, unsigned char kTag>
class StructuredReader : public ReaderBase {
 public:
  static bool Recognises(std::string_view filter) { return HasFrameTag(filter, kTag); }

  bool MayMatch(std::string_view key) const { return HashMayMatch(KeyHash64(key)); }
  bool HashMayMatch(uint64_t h) const {
    if (body_ == kStructuredBody) return self().BodyMayMatch(h);
    return body_ != 0 ? bloom_.HashMayMatch(h) : FixedAnswer();
  }
  // Answers as MayMatch does; out holds keys.size() entries. The structured
  // body hashes a group of keys and prefetches their lines before probing.
  void MayMatchBatch(absl::Span<const std::string_view> keys, bool* out) const {
    MayMatchEach(
        keys.size(), [keys](size_t i) { return keys[i]; }, out);
  }
  // The same for keys held some other way: key i is key_at(i), a
  // std::string_view (RocksDB's MultiGet, read in place; see
  // CacheLocalBloomReader::MayMatchEach).
  template <typename KeyAt>
  void MayMatchEach(size_t n, KeyAt key_at, bool* out) const {
    if (body_ == kStructuredBody) return self().BodyMayMatchEach(n, key_at, out);
    if (body_ != 0) return bloom_.MayMatchEach(n, key_at, out);
    FillFixedAnswer(n, out);
  }

  // What the body is (its frame's body kind), 0 when the filter is not
  // understood.
  unsigned char body() const { return body_; }
  // The structured body's shape (set for kStructuredBody).
  const auto& shape() const { return layout_.shape; }

 protected:
  // `parse`: the encoding's parse of a structured body; num_probes: what a
  // query of that body tests (ReaderBase::num_probes). `simd` picks the
  // Bloom body's kernels.
  template <typename Parse>
  StructuredReader(std::string_view filter, SimdLevel simd, Parse parse, int num_probes)
      : bloom_(TaggedBloomBody(filter, kTag).value_or(std::string_view{}), simd) {
    // state_ starts as kMatchEverything: a filter neither body takes fails open.
    if (TaggedBloomBody(filter, kTag)) {
      body_ = FrameBodyKind(filter);
      state_ = bloom_.state();
      num_probes_ = bloom_.num_probes();
      return;
    }
    const ParsedFilter<Layout> parsed = parse(filter);
    if (parsed.state != FilterState::kProbe) return;
    body_ = kStructuredBody;
    state_ = FilterState::kProbe;
    num_probes_ = num_probes;
    layout_ = parsed.layout;
  }

  // The derived reader's MayMatchOnce: a Bloom body asked through
  // CacheLocalBloomReader::MayMatchOnce, a structured body parsed by Parse
  // (inlined: a one-shot query keeps the layout in registers and makes no
  // call) and probed by probe(layout, key hash).
  template <auto Parse, typename Probe>
  ABSL_ATTRIBUTE_ALWAYS_INLINE static bool OnceMayMatch(
      std::string_view filter, std::string_view key,
      const CacheLocalBloomReader::OnceContext& bloom, Probe probe) {
    if (const std::optional<std::string_view> body = TaggedBloomBody(filter, kTag)) {
      return CacheLocalBloomReader::MayMatchOnce(*body, key, bloom);
    }
    return Parse(filter).Answer(
        [key, &probe](const Layout& l) { return probe(l, KeyHash64(key)); });
  }

  Layout layout_;  // Set for kStructuredBody.

 private:
  const Reader& self() const { return static_cast<const Reader&>(*this); }

  unsigned char body_ = 0;
  CacheLocalBloomReader bloom_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_STRUCTURED_READER_H_
