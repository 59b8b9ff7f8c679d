// What describes an encoding besides its Builder and Reader (EncodingInfo),
// and the vocabulary it is told in: what a reader found in a filter's bytes,
// how tools describe a built filter, what a filter for n keys will cost.
#ifndef SSTFILTER_FILTER_ENCODING_INFO_H_
#define SSTFILTER_FILTER_ENCODING_INFO_H_

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "filter/encoding_id.h"

namespace sstfilter {

// What a reader made of a filter's bytes. Readers fail open: only bytes
// they fully understand are probed; the empty filter matches nothing.
enum class FilterState {
  kProbe,            // A well-formed filter: answers come from its bits.
  kMatchNothing,     // The empty filter (built from no keys).
  kMatchEverything,  // Damaged, reserved or foreign bytes: "may match".
};

// A built filter as tools show it (the SST inspector).
struct FilterDescription {
  FilterState state = FilterState::kMatchEverything;
  // "leveldb k=6", "cache_local k=6", "empty (matches nothing)", "unknown tag
  // 0x7f (reads as may-match)". Equal for filters of one encoding and k, so
  // partitions can be grouped by it.
  std::string name;
  int num_probes = 0;  // 0 unless kProbe.
  double num_bits = 0;  // Bits of the probed array; 0 unless kProbe.
  // FP rate of this filter holding n keys, by its encoding's model. Set when
  // kProbe.
  std::function<double(double num_keys)> fp_model;

  // A filter answering without probing (kMatchNothing or kMatchEverything).
  static FilterDescription Fixed(FilterState state, std::string name) {
    FilterDescription d;
    d.state = state;
    d.name = std::move(name);
    return d;
  }
  static FilterDescription Probed(std::string name, int num_probes, double num_bits,
                                  std::function<double(double)> fp_model) {
    FilterDescription d = Fixed(FilterState::kProbe, std::move(name));
    d.num_probes = num_probes;
    d.num_bits = num_bits;
    d.fp_model = std::move(fp_model);
    return d;
  }

  // fp_model for kProbe, else the fixed answer's rate (0 or 1).
  double ExpectedFpRate(double num_keys) const {
    switch (state) {
      case FilterState::kProbe:
        return fp_model(num_keys);
      case FilterState::kMatchNothing:
        return 0.0;
      case FilterState::kMatchEverything:
        return 1.0;
    }
    return 1.0;
  }
};

// Encoding-specific figures of a planned filter: labels and formatted values.
struct PlanDetails {
  std::vector<std::pair<std::string, std::string>> layout;    // Shown before the size.
  std::vector<std::pair<std::string, std::string>> fp_parts;  // Shown after the FP rate.
};

// A filter an encoding would build for n keys at some bits/key (what
// sstfilter_params prints; PlanFilter in encodings.h fills it in).
struct FilterPlan {
  int num_probes = 0;
  size_t filter_bytes = 0;
  double expected_fp_rate = 0;
  PlanDetails details;
};

// An encoding's facts other than its Builder and Reader types.
struct EncodingInfo {
  // Its name in option strings, flags and tools ("leveldb").
  std::string_view name;
  // One line for tables and plot legends.
  std::string_view title;
  // The final byte that marks its filters: a value above 30, distinct among
  // the encodings (encodings_test), or 0 for LevelDB's format, whose final
  // byte is k (1..30).
  unsigned char tag;
  // Whether a filter's bytes are of this encoding (by its final byte).
  bool (*recognises)(std::string_view filter);
  // FP model: the rate of a filter built for n keys at bits_per_key.
  double (*expected_fp_rate)(size_t num_keys, double bits_per_key);
  // The same model for a filter of `bytes` bytes (as its builder at
  // bits_per_key lays them out) holding n keys.
  double (*sized_fp_rate)(size_t num_keys, size_t bytes, double bits_per_key);
  // How tools describe one of its filters. REQUIRES: recognises(filter).
  FilterDescription (*describe)(std::string_view filter);
  // What sstfilter_params adds to the common figures for n keys.
  PlanDetails (*plan_details)(size_t num_keys, double bits_per_key);
  // The kernels its readers run on this CPU by default (BestSimdLevel(),
  // filter/simd_level.h), for benchmark reports: "avx2", "scalar", or more
  // where queries differ ("avx512 batched (16+ keys) single keys scalar").
  // No commas: reports join the encodings' with them.
  std::string (*kernels)();
};

// An encoding as filter/encodings.h lists it: its builder, its reader, its
// facts and its EncodingId (its position in the list, checked there).
template <typename BuilderType, typename ReaderType, const EncodingInfo& kInfoObject,
          EncodingId kIdValue>
struct Encoding {
  using Builder = BuilderType;
  using Reader = ReaderType;
  static constexpr const EncodingInfo& kInfo = kInfoObject;
  static constexpr EncodingId kId = kIdValue;
};

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ENCODING_INFO_H_
