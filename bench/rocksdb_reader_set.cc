#include "bench/rocksdb_reader_set.h"

#include <algorithm>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "bench/key_shapes.h"
#include "rocksdb/convenience.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/table.h"
#include "table/rocksdb/registration.h"

namespace sstfilter::bench {
namespace {

constexpr size_t kCacheLine = 64;

bool IsPowerOfTwo(size_t x) { return x != 0 && (x & (x - 1)) == 0; }

// The filter bytes policy's builder writes for keys. Sizes follow the
// encoding's own formula (optimize_filters_for_memory off, as the
// FastLocalBloom comparisons elsewhere), so both policies spend the same bits.
std::string BuildFilter(const rocksdb::FilterPolicy& policy,
                        absl::Span<const std::string_view> keys) {
  rocksdb::BlockBasedTableOptions table;
  table.optimize_filters_for_memory = false;
  const rocksdb::FilterBuildingContext context(table);
  std::unique_ptr<rocksdb::FilterBitsBuilder> builder(policy.GetBuilderWithContext(context));
  for (std::string_view key : keys) builder->AddKey(rocksdb::Slice(key.data(), key.size()));
  std::unique_ptr<const char[]> buf;
  const rocksdb::Slice filter = builder->Finish(&buf);
  return std::string(filter.data(), filter.size());
}

}  // namespace

absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> PolicyFromString(
    const std::string& id) {
  std::shared_ptr<const rocksdb::FilterPolicy> policy;
  const rocksdb::Status s = CreateFilterPolicyStrictly(id, &policy);
  if (!s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("filter policy '%s' did not resolve: %s", id, s.ToString()));
  }
  if (policy == nullptr) {
    return absl::InvalidArgumentError(absl::StrFormat("'%s' names no filter policy", id));
  }
  return policy;
}

absl::StatusOr<std::unique_ptr<RocksDbReaderSet>> RocksDbReaderSet::Create(
    const rocksdb::FilterPolicy& policy, absl::Span<const std::string_view> keys,
    size_t min_total_bytes, size_t alignment, uint64_t seed) {
  if (!IsPowerOfTwo(alignment) || alignment > kCacheLine) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "filter alignment %d is not a power of two from 1 to %d", alignment, kCacheLine));
  }
  const std::string filter = BuildFilter(policy, keys);
  std::unique_ptr<RocksDbReaderSet> set(new RocksDbReaderSet());
  set->filter_bytes_ = filter.size();
  const size_t bytes = std::max<size_t>(1, filter.size());
  const size_t copies = std::max<size_t>(1, (min_total_bytes + bytes - 1) / bytes);
  // Each copy owns a slot of whole cache lines with room for any phase.
  const size_t slot = (filter.size() + 2 * kCacheLine - 1) / kCacheLine * kCacheLine;
  set->buffer_.reset(static_cast<char*>(std::aligned_alloc(kCacheLine, slot * copies)));
  if (set->buffer_ == nullptr) {
    return absl::ResourceExhaustedError(
        absl::StrFormat("cannot allocate %d bytes of filter copies", slot * copies));
  }
  const size_t phases = kCacheLine / alignment;
  set->starts_.reserve(copies);
  set->readers_.reserve(copies);
  for (size_t c = 0; c < copies; ++c) {
    char* dst = set->buffer_.get() + c * slot + alignment * (Mix64(seed + c) % phases);
    std::memcpy(dst, filter.data(), filter.size());
    set->starts_.push_back(dst);
    set->readers_.emplace_back(policy.GetFilterBitsReader(rocksdb::Slice(dst, filter.size())));
  }
  return set;
}

}  // namespace sstfilter::bench
