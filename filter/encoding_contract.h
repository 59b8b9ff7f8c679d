// The contract every encoding meets, checked at compile time where the
// encoding list is declared (filter/encodings.h): a missing or mistyped
// part is a compile error naming it, never a silent slow path. Hosts
// (table/rocksdb/, table/leveldb/, tools, benchmarks) use every part of it
// without asking whether it is there.
//
// An encoding E is Encoding<Builder, Reader, kInfo> (encoding_info.h):
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
//   E::kInfo                                 name, title, recogniser, FP models,
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

// Each check is one part of the contract: a struct whose value is whether T
// has it with the right types (std::void_t detection; C++17 has no concepts).
#define SSTFILTER_CONTRACT_PART(NAME, ...)                                   \
  template <typename T, typename = void>                                    \
  struct NAME : std::false_type {};                                         \
  template <typename T>                                                     \
  struct NAME<T, std::enable_if_t<__VA_ARGS__>> : std::true_type {}

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
  template <typename H>
  void operator()(H) const;
};

template <typename Want, typename Got>
constexpr bool kIs = std::is_same_v<Want, Got>;

SSTFILTER_CONTRACT_PART(
    BuilderAdds,
    std::is_constructible_v<T, double> &&
        kIs<typename T::Hash, decltype(T::HashKey(std::string_view{}))> &&
        kIs<void, decltype(Mut<T>().AddKey(std::string_view{}))> &&
        kIs<void, decltype(Mut<T>().AddHash(typename T::Hash{}))> &&
        kIs<void, decltype(Mut<T>().Retune(double{}))> &&
        kIs<size_t, decltype(Const<T>().NumEntries())> &&
        kIs<void, decltype(Const<T>().ForEachHash(VisitHash{}))>);
SSTFILTER_CONTRACT_PART(
    BuilderFinishes,
    kIs<size_t, decltype(Mut<T>().FinishSize())> &&
        kIs<void, decltype(Mut<T>().FinishInto(static_cast<char*>(nullptr)))> &&
        kIs<void, decltype(Mut<T>().Finish(static_cast<std::string*>(nullptr)))>);
SSTFILTER_CONTRACT_PART(
    BuilderSizesToAllocation,
    kIs<size_t, decltype(Mut<T>().FittingBuiltSize(size_t{}))> &&
        kIs<double, decltype(Mut<T>().BuiltFpRate(size_t{}))> &&
        kIs<void, decltype(Mut<T>().FinishInto(static_cast<char*>(nullptr), size_t{}))>);
SSTFILTER_CONTRACT_PART(
    BuilderPlans,
    kIs<size_t, decltype(Const<T>().FilterSize(size_t{}))> &&
        kIs<size_t, decltype(Const<T>().MaxEntriesForSize(size_t{}))> &&
        kIs<double, decltype(Const<T>().bits_per_key())> &&
        kIs<int, decltype(Const<T>().num_probes())>);

// R is E::Reader, H E::Builder::Hash.
template <typename R, typename H, typename = void>
struct ReaderQueries : std::false_type {};
template <typename R, typename H>
struct ReaderQueries<
    R, H,
    std::enable_if_t<
        std::is_constructible_v<R, std::string_view> &&
        kIs<bool, decltype(Const<R>().MayMatch(std::string_view{}))> &&
        kIs<bool, decltype(Const<R>().HashMayMatch(H{}))> &&
        kIs<void, decltype(Const<R>().MayMatchBatch(absl::Span<const std::string_view>{},
                                                    static_cast<bool*>(nullptr)))> &&
        kIs<void, decltype(Const<R>().MayMatchEach(size_t{}, KeyAt{},
                                                   static_cast<bool*>(nullptr)))> &&
        kIs<FilterState, decltype(Const<R>().state())>>> : std::true_type {};

// One query of a filter's bytes, no reader built.
SSTFILTER_CONTRACT_PART(
    ReaderAnswersOnce,
    kIs<bool, decltype(T::Recognises(std::string_view{}))> &&
        std::is_constructible_v<typename T::OnceContext, SimdLevel> &&
        kIs<bool, decltype(T::MayMatchOnce(std::string_view{}, std::string_view{},
                                           Const<typename T::OnceContext>()))>);

#undef SSTFILTER_CONTRACT_PART

}  // namespace encoding_contract

// Compiles only if E meets the contract above; each failure names its part.
template <typename E>
constexpr bool CheckEncodingContract() {
  using B = typename E::Builder;
  using R = typename E::Reader;
  namespace ec = encoding_contract;
  static_assert(ec::BuilderAdds<B>::value,
                "Builder: (double) constructor, Hash, HashKey, AddKey, AddHash, Retune, "
                "NumEntries, ForEachHash");
  static_assert(ec::BuilderFinishes<B>::value, "Builder: FinishSize, FinishInto(out), Finish");
  static_assert(ec::BuilderSizesToAllocation<B>::value,
                "Builder: FittingBuiltSize, BuiltFpRate, FinishInto(out, bytes)");
  static_assert(ec::BuilderPlans<B>::value,
                "Builder: FilterSize, MaxEntriesForSize, bits_per_key, num_probes");
  static_assert(ec::ReaderQueries<R, typename B::Hash>::value,
                "Reader: (string_view) constructor, MayMatch, HashMayMatch, MayMatchBatch, "
                "MayMatchEach, state");
  static_assert(ec::ReaderAnswersOnce<R>::value,
                "Reader: static Recognises, OnceContext(SimdLevel), static MayMatchOnce");
  static_assert(ec::kIs<const EncodingInfo&, decltype(E::kInfo)>, "kInfo: an EncodingInfo");
  return true;
}

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ENCODING_CONTRACT_H_
