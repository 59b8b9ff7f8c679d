#include "table/rocksdb/rocksdb_filter_policy.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "filter/accuracy.h"
#include "filter/encodings.h"
#include "filter/memory_sizing.h"
#include "filter/option_fields.h"
#include "filter/plan/plan_text.h"
#include "rocksdb/env.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/options_type.h"
#include "table/census/census_listener.h"
#include "table/census/policy_registry.h"
#include "table/rocksdb/allocator_usable_size.h"
#include "table/rocksdb/bits_builder_adapter.h"
#include "table/rocksdb/bits_reader_factory.h"
#include "table/rocksdb/rocksdb_internal.h"
#include "table/rocksdb/table_sizing.h"

namespace sstfilter {

namespace {

rocksdb::Status ToRocksDb(const absl::Status& status) {
  return rocksdb::Status::InvalidArgument(std::string(status.message()));
}

// RocksDB's view of one field of the option table (filter/option_fields.h):
// parsed strictly by the field (so a bad value is an error naming it;
// RocksDB's own double parsing accepts "10abc") and written back in a form
// the field reads to the same value. Every field is addressed at offset 0,
// the whole FilterOptions, which the field reads and writes its part of.
rocksdb::OptionTypeInfo FieldInfo(const OptionField& field) {
  const OptionField* f = &field;
  return rocksdb::OptionTypeInfo(
      0, rocksdb::OptionType::kUnknown, rocksdb::OptionVerificationType::kNormal,
      field.serialized ? rocksdb::OptionTypeFlags::kNone
                       : rocksdb::OptionTypeFlags::kDontSerialize,
      [f](const rocksdb::ConfigOptions&, const std::string&, const std::string& value,
          void* addr) {
        absl::Status s = f->parse(value, static_cast<FilterOptions*>(addr));
        return s.ok() ? rocksdb::Status::OK() : ToRocksDb(s);
      },
      [f](const rocksdb::ConfigOptions&, const std::string&, const void* addr,
          std::string* value) {
        *value = f->format(*static_cast<const FilterOptions*>(addr));
        return rocksdb::Status::OK();
      },
      [f](const rocksdb::ConfigOptions&, const std::string&, const void* a, const void* b,
          std::string*) {
        return f->format(*static_cast<const FilterOptions*>(a)) ==
               f->format(*static_cast<const FilterOptions*>(b));
      });
}

// The options of "{id=sstfilter.bloom;...}", one per field of the table
// (fp_rate, compact_from_level, budget_mb and the shares are "none" when
// unset: RocksDB writes every serialized option out). A set fp_rate
// replaces bits_per_key.
const std::unordered_map<std::string, rocksdb::OptionTypeInfo>& OptionInfo() {
  static const auto* const kInfo = [] {
    auto* info = new std::unordered_map<std::string, rocksdb::OptionTypeInfo>;
    for (const OptionField& field : OptionFields()) {
      info->emplace(std::string(field.name), FieldInfo(field));
    }
    return info;
  }();
  return *kInfo;
}

// The policy. It also stands in for a "sstfilter.bloom..." string that
// failed to parse or configure: RocksDB's default option parsing (OPTIONS
// files, GetOptionsFromString, db_bench) drops such errors and would run
// the DB with no filter, or the default one. A rejected policy remembers why
// and fails PrepareOptions and ValidateOptions, which RocksDB does report
// (at parse time when it prepares objects, and at DB::Open), so the DB
// refuses to open with a message naming the bad value.
class RocksDbFilterPolicy final : public rocksdb::FilterPolicy {
 public:
  // REQUIRES: options resolved (ResolveFilterOptions). The options object
  // RocksDB configures ("{id=...;bits_per_key=...}") is options_ itself.
  explicit RocksDbFilterPolicy(const FilterOptions& options)
      : options_(options),
        answers_(RegisterPolicy(this, [this](const rocksdb::BlockBasedTableOptions& table) {
          std::optional<PolicySizing> sizing;
          if (Error().ok()) sizing = PolicySizing{options_, CacheSiteOf(options_, table)};
          return sizing;
        })) {
    RegisterOptions("FilterOptions", &options_, &OptionInfo());
  }
  ~RocksDbFilterPolicy() override { UnregisterPolicy(this); }
  // A policy rejected from its id: `id` as written, `why` names the value.
  RocksDbFilterPolicy(std::string id, const absl::Status& why)
      : RocksDbFilterPolicy(FilterOptions()) {
    rejected_id_ = std::move(id);
    id_error_ = Rejection(rejected_id_, ToRocksDb(why));
  }

  static const char* kClassName() { return kBloomPolicyName; }
  const char* Name() const override { return kClassName(); }
  // Filters are ours whatever the format: the reader dispatches on the tag.
  const char* CompatibilityName() const override { return kBloomPolicyName; }
  // Derived from the options, so a saved OPTIONS file reloads to this policy
  // (a rejected one keeps the id it was given).
  std::string GetId() const override {
    return id_error_.ok() ? FormatPolicyId(options_) : rejected_id_;
  }

  rocksdb::Status PrepareOptions(const rocksdb::ConfigOptions& config_options) override {
    rocksdb::Status s = Error();
    return s.ok() ? rocksdb::FilterPolicy::PrepareOptions(config_options) : s;
  }
  rocksdb::Status ValidateOptions(const rocksdb::DBOptions& db_options,
                                  const rocksdb::ColumnFamilyOptions& cf_options) const override {
    rocksdb::Status s = Error();
    if (s.ok()) s = CensusListenerPresent(db_options);
    if (s.ok()) SayCacheFallback(db_options.info_log.get(), cf_options);
    return s.ok() ? rocksdb::FilterPolicy::ValidateOptions(db_options, cf_options) : s;
  }

  // No filter from a rejected policy (it never gets this far under DB::Open,
  // which validates first); the tables stay correct, only unfiltered.
  rocksdb::FilterBitsBuilder* GetBuilderWithContext(
      const rocksdb::FilterBuildingContext& context) const override {
    if (!Error().ok()) return nullptr;
    const bool post_verify = context.table_options.detect_filter_construct_corruption;
    // As RocksDB's built-ins: on when asked and malloc_usable_size exists.
    FpCredit* memory_credit =
        context.table_options.optimize_filters_for_memory && AllocatorReportsUsableSize()
            ? &memory_credit_
            : nullptr;
    if (options_.per_level.cache_aware && !fallback_said_.exchange(true)) {
      SayFallback(context.info_log, &context.table_options);
    }
    TableChoice choice = ChooseForTable(options_, context);
    if (choice.plan.has_value() && context.info_log != nullptr) {
      rocksdb::Log(rocksdb::InfoLogLevel::INFO_LEVEL, context.info_log, "%s: %s",
                   kBloomPolicyName, DescribePlan(*choice.plan).c_str());
    }
    // RocksDB writes the table without a filter block.
    if (choice.no_filter) return nullptr;
    const EncodingId encoding = choice.encoding;
    const Accuracy accuracy(options_);
    FilterSetting setting = FilterSettingOf(choice);
    if (!setting && accuracy.PerFilter()) {
      setting = [accuracy, encoding](const FilterKeys& keys) {
        return accuracy.BitsPerKey(encoding, keys.entries);
      };
    }
    return VisitEncoding(encoding, [&](auto e) -> rocksdb::FilterBitsBuilder* {
      using E = decltype(e);
      return new BitsBuilderAdapter<E>(typename E::Builder(accuracy.NominalBitsPerKey(encoding)),
                                       post_verify, memory_credit, std::move(setting),
                                       choice.reads_range());
    });
  }

  // Names an unknown option itself (RocksDB's own message for it, seen
  // through filter_policy, only says "Could not find option: : filter_policy"),
  // checks the options together (format=compact with compact_from_level),
  // and remembers a failed configuration until a later one succeeds.
  rocksdb::Status ConfigureOptions(
      const rocksdb::ConfigOptions& config_options,
      const std::unordered_map<std::string, std::string>& options,
      std::unordered_map<std::string, std::string>* unused) override {
    rocksdb::Status s = UnknownOption(config_options, options);
    if (s.ok()) s = ConflictWithId(config_options, options);
    if (s.ok()) s = rocksdb::FilterPolicy::ConfigureOptions(config_options, options, unused);
    if (s.ok()) s = Combination();
    config_error_ = s.ok() ? s : Rejection(GetId(), s);
    return s;
  }

  rocksdb::FilterBitsReader* GetFilterBitsReader(
      const rocksdb::Slice& contents) const override {
    return NewBitsReader(contents, answers_);
  }

  // The policy was made from `id`: the option map RocksDB configures next
  // ({id=<id>;...}) may repeat what it states, not say otherwise.
  void StatedById(const std::string& id) {
    id_ = id;
    id_stated_ = StatedOptions(id);
  }

 private:
  // A field of the map beside the id that the id states otherwise
  // ({id=sstfilter.bloom:10:banded;format=leveldb}): refused naming both,
  // where RocksDB would silently take the map's. Only the first map: later
  // configurations of the policy change it as asked.
  rocksdb::Status ConflictWithId(const rocksdb::ConfigOptions& config_options,
                                 const std::unordered_map<std::string, std::string>& options) {
    std::vector<std::string> stated = std::move(id_stated_);
    id_stated_.clear();
    for (const auto& [name, value] : options) {
      if (std::find(stated.begin(), stated.end(), name) == stated.end()) continue;
      const rocksdb::OptionTypeInfo& info = OptionInfo().at(name);
      FilterOptions given = options_;
      std::string mismatch;
      if (!info.Parse(config_options, name, value, &given).ok() ||
          info.AreEqual(config_options, name, &options_, &given, &mismatch)) {
        continue;  // A bad value is named by the configuration itself.
      }
      return rocksdb::Status::InvalidArgument(absl::StrFormat(
          "%s: %s=%s conflicts with id=%s, which states %s otherwise; give each option once",
          kBloomPolicyName, name, value, id_, name));
    }
    return rocksdb::Status::OK();
  }


  static rocksdb::Status Rejection(const std::string& id, const rocksdb::Status& why) {
    return rocksdb::Status::InvalidArgument(absl::StrFormat(
        "filter_policy %s was rejected, the DB would run without the filter it asks for: %s",
        id, why.getState() != nullptr ? why.getState() : why.ToString()));
  }

  static rocksdb::Status UnknownOption(const rocksdb::ConfigOptions& config_options,
                                       const std::unordered_map<std::string, std::string>& options) {
    if (config_options.ignore_unknown_options) return rocksdb::Status::OK();
    for (const auto& [name, value] : options) {
      if (name != rocksdb::OptionTypeInfo::kIdPropName() && OptionInfo().count(name) == 0) {
        // "sstfilter.bloom:10:compact_from_level=2" given where a policy is
        // in force reaches us split at its '=' into this name and value.
        const char* hint = absl::StartsWith(name, kBloomPolicyName)
                               ? " (an id's fields are separated by ':', as in "
                                 "compact_from_level:2)"
                               : "";
        return rocksdb::Status::InvalidArgument(
            absl::StrFormat("%s: unknown option '%s' (value '%s'); expected %s%s",
                            kBloomPolicyName, name, value, OptionFieldNameList(), hint));
      }
    }
    return rocksdb::Status::OK();
  }

  // optimize_levels sizes filters from the tree's runs, which only the level
  // census listener reads: without it every table would silently get the
  // uniform setting, so DB::Open fails instead.
  rocksdb::Status CensusListenerPresent(const rocksdb::DBOptions& db_options) const {
    if (!options_.per_level.optimize_levels) return rocksdb::Status::OK();
    // By name: RocksDB's own builds have no RTTI for dynamic_cast.
    for (const auto& listener : db_options.listeners) {
      if (listener != nullptr &&
          std::string_view(listener->Name()) == LevelCensusListener::kClassName()) {
        return rocksdb::Status::OK();
      }
    }
    return rocksdb::Status::InvalidArgument(absl::StrFormat(
        "%s: %s needs the level census listener beside it, which reads the tree's level "
        "sizes: add listeners=%s to the DB options (C++: "
        "options.listeners.push_back(sstfilter::NewLevelCensusListener()))",
        kBloomPolicyName, kOptimizeLevelsName, LevelCensusListener::kClassName()));
  }

  // cache_aware where the filters are not in a block cache: said in the
  // DB's log when it opens (where its log exists by then) and at the first
  // table this policy builds.
  void SayCacheFallback(rocksdb::Logger* log, const rocksdb::ColumnFamilyOptions& cf) const {
    if (!options_.per_level.cache_aware) return;
    const rocksdb::TableFactory* factory = cf.table_factory.get();
    SayFallback(log, factory == nullptr
                         ? nullptr
                         : factory->GetOptions<rocksdb::BlockBasedTableOptions>());
  }
  void SayFallback(rocksdb::Logger* log, const rocksdb::BlockBasedTableOptions* table) const {
    const std::string why = CacheAwareFallback(options_, table);
    if (log != nullptr && !why.empty()) rocksdb::Warn(log, "%s", why.c_str());
  }

  // The options' combination rules (ResolveFilterOptions): each option map
  // entry is checked alone as it is set.
  rocksdb::Status Combination() const {
    absl::StatusOr<FilterOptions> resolved = ResolveFilterOptions(options_);
    return resolved.ok() ? rocksdb::Status::OK() : ToRocksDb(resolved.status());
  }

  rocksdb::Status Error() const {
    if (!id_error_.ok()) return id_error_;
    if (!config_error_.ok()) return config_error_;
    rocksdb::Status s = Combination();
    return s.ok() ? s : Rejection(GetId(), s);
  }

  FilterOptions options_;
  // The FP credit of optimize_filters_for_memory, shared by every builder
  // of this policy (filter/memory_sizing.h), as RocksDB's built-in policies
  // share theirs.
  mutable FpCredit memory_credit_;
  mutable std::atomic<bool> fallback_said_{false};  // At a first table (SayFallback).
  // Its readers' sampled answers, which the census reads where the DB
  // keeps no statistics (table/census/filter_answers.h).
  const std::shared_ptr<FilterAnswers> answers_;

  // The id it was made from, and the options it states (StatedById).
  std::string id_;
  std::vector<std::string> id_stated_;
  std::string rejected_id_;
  rocksdb::Status id_error_;      // The id itself was bad (permanent).
  rocksdb::Status config_error_;  // The last ConfigureOptions failed.
};

}  // namespace

absl::StatusOr<std::unique_ptr<rocksdb::FilterPolicy>> NewRocksDbFilterPolicy(
    const FilterOptions& options) {
  absl::StatusOr<FilterOptions> resolved = ResolveFilterOptions(options);
  if (!resolved.ok()) return resolved.status();
  return std::make_unique<RocksDbFilterPolicy>(*resolved);
}

std::unique_ptr<rocksdb::FilterPolicy> NewRocksDbFilterPolicyFromId(const std::string& id) {
  absl::StatusOr<FilterOptions> options = ParsePolicyId(id);
  if (options.ok()) options = ResolveFilterOptions(*options);
  if (!options.ok()) return std::make_unique<RocksDbFilterPolicy>(id, options.status());
  auto policy = std::make_unique<RocksDbFilterPolicy>(*options);
  policy->StatedById(id);
  return policy;
}

}  // namespace sstfilter
