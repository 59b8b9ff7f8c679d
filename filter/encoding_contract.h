// The contract every encoding meets, checked at compile time where the
// encoding list is declared (filter/encodings.h): a missing or mistyped
// part is a compile error naming it, never a silent slow path. Hosts
// (table/rocksdb/, table/leveldb/, tools, benchmarks) use every part of it
// without asking whether it is there.
//
// An encoding E is Encoding<Builder, Reader, kInfo, kId> (encoding_info.h;
// kId its EncodingId, checked in encodings.h):
//
//   E::Builder(double bits_per_key)          REQUIRES 0 < bits_per_key <= kMaxBitsPerKey
//     Hash, static Hash HashKey(key)         the encoding's key hash
//     AddKey(key), AddHash(Hash)             (AddKey | AddHash)* ...
//     NumEntries(), ForEachHash(visit)       what was added since the last Finish
//     Retune(double bits_per_key)            the next Finish's setting (same
//                                            REQUIRES); entries are kept
//     FinishSize()                           bytes of the next filter (builds it
//                                            where its size depends on it)
//     FinishInto(char* out)                  writes FinishSize() bytes, resets
//     Finish(std::string* dst)               appends them to *dst, resets
//     FittingBuiltSize(bytes)                after FinishSize: the largest size
//                                            <= bytes it can write, 0 if none
//     BuiltFpRate(bytes)                     the FP model at such a size
//     FinishInto(char* out, size_t bytes)    writes the filter at such a size
//     FilterSize(n), MaxEntriesForSize(b)    the size formula and its inverse
//     bits_per_key(), num_probes()           settings; num_probes: the memory
//                                            words a query tests (Bloom k; a
//                                            fuse filter's arity)
//   E::Reader(std::string_view filter)       fails open on bytes it does not
//                                            fully understand; the bytes must
//                                            outlive it; thread-safe
//     MayMatch(key), HashMayMatch(Hash)
//     MayMatchBatch(Span<const string_view>, bool* out)
//     MayMatchEach(n, key_at, bool* out)     keys read where the caller holds
//                                            them (string_view key_at(size_t))
//     state()                                what the bytes were (FilterState)
//     static Recognises(filter)              whether the bytes are of E (by the
//                                            final byte); E::kInfo.recognises
//     OnceContext(SimdLevel)                 what one-shot queries resolve ahead
//     static MayMatchOnce(filter, key, const OnceContext&)
//                                            MayMatch's answer with no reader
//                                            built: E's one parse, no allocation
//                                            (OneShotQuery, filter_policy.h)
//   E::kInfo                                 name, title, tag, recogniser, FP models,
//                                            description and plan of a filter
#ifndef SSTFILTER_FILTER_ENCODING_CONTRACT_H_
#define SSTFILTER_FILTER_ENCODING_CONTRACT_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "absl/types/span.h"
#include "filter/encoding_info.h"
#include "filter/simd_level.h"

namespace sstfilter {
namespace encoding_contract {

// Each check is one member of the contract: a struct whose value is whether
// T has it with the right types (std::void_t-style detection; C++17 has no
// concepts). H is the builder's Hash where the member takes one.
#define SSTFILTER_CONTRACT_PART(NAME, ...)           \
  template <typename T, typename H, typename = void> \
  struct NAME : std::false_type {};                  \
  template <typename T, typename H>                  \
  struct NAME<T, H, std::enable_if_t<__VA_ARGS__>> : std::true_type {}

template <typename T>
T& Mut();  // Never defined: an lvalue of T inside decltype.
template <typename T>
const T& Const();

// A key accessor of the shape MayMatchEach takes, and a hash visitor of the
// shape ForEachHash takes (lambdas cannot appear inside decltype in C++17).
struct KeyAt {
  std::string_view operator()(size_t i) const;
};
struct VisitHash {
  template <typename Hash>
  void operator()(Hash) const;
};

template <typename Want, typename Got>
constexpr bool kIs = std::is_same_v<Want, Got>;

using Keys = absl::Span<const std::string_view>;
inline constexpr char* kOut = nullptr;
inline constexpr bool* kAnswers = nullptr;

// E::Builder, T below.
SSTFILTER_CONTRACT_PART(HasHash, (sizeof(typename T::Hash) > 0));
SSTFILTER_CONTRACT_PART(BuiltFromBitsPerKey, std::is_constructible_v<T, double>);
SSTFILTER_CONTRACT_PART(HashKey, kIs<H, decltype(T::HashKey(std::string_view{}))>);
SSTFILTER_CONTRACT_PART(AddKey, kIs<void, decltype(Mut<T>().AddKey(std::string_view{}))>);
SSTFILTER_CONTRACT_PART(AddHash, kIs<void, decltype(Mut<T>().AddHash(H{}))>);
SSTFILTER_CONTRACT_PART(Retune, kIs<void, decltype(Mut<T>().Retune(double{}))>);
SSTFILTER_CONTRACT_PART(NumEntries, kIs<size_t, decltype(Const<T>().NumEntries())>);
SSTFILTER_CONTRACT_PART(ForEachHash, kIs<void, decltype(Const<T>().ForEachHash(VisitHash{}))>);
SSTFILTER_CONTRACT_PART(FinishSize, kIs<size_t, decltype(Mut<T>().FinishSize())>);
SSTFILTER_CONTRACT_PART(FinishInto, kIs<void, decltype(Mut<T>().FinishInto(kOut))>);
SSTFILTER_CONTRACT_PART(Finish,
                        kIs<void, decltype(Mut<T>().Finish(static_cast<std::string*>(nullptr)))>);
SSTFILTER_CONTRACT_PART(FittingBuiltSize,
                        kIs<size_t, decltype(Mut<T>().FittingBuiltSize(size_t{}))>);
SSTFILTER_CONTRACT_PART(BuiltFpRate, kIs<double, decltype(Mut<T>().BuiltFpRate(size_t{}))>);
SSTFILTER_CONTRACT_PART(FinishIntoSized, kIs<void, decltype(Mut<T>().FinishInto(kOut, size_t{}))>);
SSTFILTER_CONTRACT_PART(FilterSize, kIs<size_t, decltype(Const<T>().FilterSize(size_t{}))>);
SSTFILTER_CONTRACT_PART(MaxEntriesForSize,
                        kIs<size_t, decltype(Const<T>().MaxEntriesForSize(size_t{}))>);
SSTFILTER_CONTRACT_PART(BitsPerKey, kIs<double, decltype(Const<T>().bits_per_key())>);
SSTFILTER_CONTRACT_PART(NumProbes, kIs<int, decltype(Const<T>().num_probes())>);

// E::Reader, T below.
SSTFILTER_CONTRACT_PART(ReadsBytes, std::is_constructible_v<T, std::string_view>);
SSTFILTER_CONTRACT_PART(MayMatch, kIs<bool, decltype(Const<T>().MayMatch(std::string_view{}))>);
SSTFILTER_CONTRACT_PART(HashMayMatch, kIs<bool, decltype(Const<T>().HashMayMatch(H{}))>);
SSTFILTER_CONTRACT_PART(MayMatchBatch,
                        kIs<void, decltype(Const<T>().MayMatchBatch(Keys{}, kAnswers))>);
SSTFILTER_CONTRACT_PART(MayMatchEach,
                        kIs<void, decltype(Const<T>().MayMatchEach(size_t{}, KeyAt{}, kAnswers))>);
SSTFILTER_CONTRACT_PART(State, kIs<FilterState, decltype(Const<T>().state())>);
SSTFILTER_CONTRACT_PART(Recognises, kIs<bool, decltype(T::Recognises(std::string_view{}))>);
SSTFILTER_CONTRACT_PART(OnceContext, std::is_constructible_v<typename T::OnceContext, SimdLevel>);
SSTFILTER_CONTRACT_PART(MayMatchOnce,
                        kIs<bool, decltype(T::MayMatchOnce(std::string_view{}, std::string_view{},
                                                           Const<typename T::OnceContext>()))>);

#undef SSTFILTER_CONTRACT_PART

template <typename B, typename H>
constexpr bool CheckBuilder() {
  static_assert(BuiltFromBitsPerKey<B, H>::value, "Builder: no Builder(double bits_per_key)");
  static_assert(HashKey<B, H>::value, "Builder: no static Hash HashKey(std::string_view)");
  static_assert(AddKey<B, H>::value, "Builder: no void AddKey(std::string_view)");
  static_assert(AddHash<B, H>::value, "Builder: no void AddHash(Hash)");
  static_assert(Retune<B, H>::value, "Builder: no void Retune(double bits_per_key)");
  static_assert(NumEntries<B, H>::value, "Builder: no size_t NumEntries() const");
  static_assert(ForEachHash<B, H>::value, "Builder: no void ForEachHash(visit) const");
  static_assert(FinishSize<B, H>::value, "Builder: no size_t FinishSize()");
  static_assert(FinishInto<B, H>::value, "Builder: no void FinishInto(char* out)");
  static_assert(Finish<B, H>::value, "Builder: no void Finish(std::string* dst)");
  static_assert(FittingBuiltSize<B, H>::value, "Builder: no size_t FittingBuiltSize(size_t)");
  static_assert(BuiltFpRate<B, H>::value, "Builder: no double BuiltFpRate(size_t bytes)");
  static_assert(FinishIntoSized<B, H>::value,
                "Builder: no void FinishInto(char* out, size_t bytes)");
  static_assert(FilterSize<B, H>::value, "Builder: no size_t FilterSize(size_t) const");
  static_assert(MaxEntriesForSize<B, H>::value,
                "Builder: no size_t MaxEntriesForSize(size_t) const");
  static_assert(BitsPerKey<B, H>::value, "Builder: no double bits_per_key() const");
  static_assert(NumProbes<B, H>::value, "Builder: no int num_probes() const");
  return true;
}

template <typename R, typename H>
constexpr bool CheckReader() {
  static_assert(ReadsBytes<R, H>::value, "Reader: no Reader(std::string_view filter)");
  static_assert(MayMatch<R, H>::value, "Reader: no bool MayMatch(std::string_view) const");
  static_assert(HashMayMatch<R, H>::value, "Reader: no bool HashMayMatch(Hash) const");
  static_assert(MayMatchBatch<R, H>::value,
                "Reader: no void MayMatchBatch(Span<const string_view>, bool*) const");
  static_assert(MayMatchEach<R, H>::value,
                "Reader: no void MayMatchEach(size_t n, key_at, bool*) const");
  static_assert(State<R, H>::value, "Reader: no FilterState state() const");
  static_assert(Recognises<R, H>::value, "Reader: no static bool Recognises(std::string_view)");
  static_assert(OnceContext<R, H>::value, "Reader: no OnceContext(SimdLevel)");
  if constexpr (OnceContext<R, H>::value) {
    static_assert(MayMatchOnce<R, H>::value,
                  "Reader: no static bool MayMatchOnce(filter, key, const OnceContext&)");
  }
  return true;
}

}  // namespace encoding_contract

// Compiles only if E meets the contract above; each missing or mistyped
// member fails one static_assert naming it. The members taking a Hash are
// checked once the builder has one.
template <typename E>
constexpr bool CheckEncodingContract() {
  using B = typename E::Builder;
  namespace ec = encoding_contract;
  static_assert(ec::kIs<const EncodingInfo&, decltype(E::kInfo)>, "kInfo: not an EncodingInfo");
  static_assert(ec::HasHash<B, void>::value, "Builder: no Hash type (its key hash)");
  if constexpr (ec::HasHash<B, void>::value) {
    ec::CheckBuilder<B, typename B::Hash>();
    ec::CheckReader<typename E::Reader, typename B::Hash>();
  }
  return true;
}

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ENCODING_CONTRACT_H_
