#include "filter/allocation/encoding_model_memo.h"

#include <cstdint>
#include <functional>
#include <mutex>
#include <unordered_map>

#include "filter/encoding_info.h"
#include "filter/encodings.h"

namespace sstfilter {

namespace {

// Entries kept before the memo forgets them all (~4 MiB): a tree's runs
// need a few thousand; the bound keeps a process that sees many trees from
// growing.
constexpr size_t kMaxEntries = size_t{1} << 16;

enum class Model : uint8_t { kFpRate, kFilterSize, kKeysForSize };

struct Point {
  Model model;
  EncodingId encoding;
  size_t num_keys;  // Or bytes (kKeysForSize).
  double setting;
  bool operator==(const Point& o) const {
    return model == o.model && encoding == o.encoding && num_keys == o.num_keys &&
           setting == o.setting;
  }
};

struct PointHash {
  size_t operator()(const Point& p) const {
    size_t h = std::hash<double>()(p.setting);
    h = h * 0x9E3779B97F4A7C15ull + p.num_keys;
    h = h * 0x9E3779B97F4A7C15ull + static_cast<size_t>(p.encoding);
    return h * 0x9E3779B97F4A7C15ull + static_cast<size_t>(p.model);
  }
};

class ModelMemo {
 public:
  template <typename Compute>
  double Get(const Point& point, Compute compute) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (auto it = values_.find(point); it != values_.end()) return it->second;
    }
    const double value = compute();  // Outside the lock: models take microseconds.
    std::lock_guard<std::mutex> lock(mu_);
    if (values_.size() >= kMaxEntries) values_.clear();
    values_.emplace(point, value);
    return value;
  }

 private:
  std::mutex mu_;
  std::unordered_map<Point, double, PointHash> values_;
};

ModelMemo& TheModelMemo() {
  static ModelMemo* memo = new ModelMemo();  // Never destroyed: used from any thread at exit.
  return *memo;
}

}  // namespace

double MemoExpectedFpRate(EncodingId encoding, size_t num_keys, double bits_per_key) {
  return TheModelMemo().Get({Model::kFpRate, encoding, num_keys, bits_per_key}, [&] {
    return EncodingInfoOf(encoding).expected_fp_rate(num_keys, bits_per_key);
  });
}

double MemoBitsPerKeyForFp(EncodingId encoding, size_t num_keys, double fp_rate,
                           double precision) {
  return BitsPerKeyForFpModel(
      [&](double setting) { return MemoExpectedFpRate(encoding, num_keys, setting); }, fp_rate,
      precision);
}

double MemoSpentBits(EncodingId encoding, size_t num_keys, double setting) {
  return 8.0 * static_cast<double>(MemoFilterSize(encoding, num_keys, setting)) /
         static_cast<double>(num_keys);
}

namespace {

// What `encoding`'s Builder at `setting` answers to `ask` (of its
// builder), remembered as `model` at `count` (keys, or bytes).
template <typename Ask>
size_t MemoBuilderAnswer(Model model, EncodingId encoding, size_t count, double setting, Ask ask) {
  return static_cast<size_t>(TheModelMemo().Get({model, encoding, count, setting}, [&] {
    return VisitEncoding(encoding, [&](auto e) {
      const typename decltype(e)::Builder builder(setting);
      return static_cast<double>(ask(builder));
    });
  }));
}

}  // namespace

size_t MemoFilterSize(EncodingId encoding, size_t num_keys, double setting) {
  return MemoBuilderAnswer(Model::kFilterSize, encoding, num_keys, setting,
                           [&](const auto& builder) { return builder.FilterSize(num_keys); });
}

size_t MemoMaxEntriesForSize(EncodingId encoding, size_t bytes, double setting) {
  return MemoBuilderAnswer(Model::kKeysForSize, encoding, bytes, setting,
                           [&](const auto& builder) { return builder.MaxEntriesForSize(bytes); });
}

}  // namespace sstfilter
