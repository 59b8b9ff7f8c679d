// Each option of FilterOptions described once: its name (in ids, RocksDB's
// option maps and OPTIONS files, and messages), how its value is read and
// written, its place in an id, which hosts take it and which option it
// refines. The ids (filter_options.h: parsing, formatting, the checks of
// combinations and their messages) and RocksDB's option map
// (table/rocksdb/rocksdb_filter_policy.cc) are driven by this table, and a
// test checks every id README.md and docs/ show against it.
#ifndef SSTFILTER_FILTER_OPTION_FIELDS_H_
#define SSTFILTER_FILTER_OPTION_FIELDS_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "filter/filter_options.h"

namespace sstfilter {

// How a field appears in an id (sstfilter.bloom:10:banded:optimize_levels).
enum class IdForm {
  kAccuracy,  // The first field, by position: bits_per_key, or fp_rate:<p>.
  kEncoding,  // A bare encoding name, anywhere after the accuracy.
  kFlag,      // Its bare name: set.
  kNamed,     // <name>:<value>.
};

// Which policies take a field.
enum class OptionHost {
  kEvery,
  // Only a policy its host tells each table's level and tree (RocksDB's):
  // the LevelDB-shaped policy refuses it.
  kTableAware,
};

struct OptionField {
  std::string_view name;
  IdForm id_form;
  // What the value is, in messages ("compact_from_level:<level>"); "" for
  // flags.
  std::string_view placeholder;
  OptionHost host;
  // For kTableAware: what a policy that is not told each table's level can
  // be given instead, ending the refusal ("or choose format=compact for
  // all"); "" if nothing.
  std::string_view host_hint;
  // The field it refines and why ("" if none): set without it, refused.
  std::string_view needs;
  std::string_view needs_why;
  // Written out in OPTIONS files. The refinements of optimize_levels are
  // not: the id holds them when set, so that OPTIONS files stay readable by
  // builds from before them (RocksDB refuses unknown names there).
  bool serialized;
  // Reads `value` as an option map gives it (the unset spelling, "none",
  // where the field has one) into *options; InvalidArgument naming it.
  absl::Status (*parse)(std::string_view value, FilterOptions* options);
  // The value as `parse` reads it back (the unset spelling when unset).
  std::string (*format)(const FilterOptions& options);
  // Whether the options give it (differ from its unset default).
  bool (*is_set)(const FilterOptions& options);
  // Where an id may not spell it unset (budget_mb:none): the message for
  // `shown`. Null where the unset spelling is a value in ids too.
  absl::Status (*unset_in_id)(std::string_view shown);
};

// Every field, in the order an id is written (FormatPolicyId).
absl::Span<const OptionField> OptionFields();

// The field named `name`; null if none.
const OptionField* FindOptionField(std::string_view name);

// The option names an option map takes, in the table's order, as a list
// for messages: "bits_per_key, fp_rate, ... or hit_share".
std::string OptionFieldNameList();

// OK if every field the options set is one a policy with no table context
// (LevelDB's FilterPolicy, or sstfilter's LevelDB-shaped one) can take;
// else InvalidArgument naming the first that is not (OptionHost::kTableAware).
absl::Status CheckHostFree(const FilterOptions& options);

// "sstfilter.bloom:10:optimize_levels:cache_aware:hit_share:0.5": an id that
// sets `field` (with its value in `options`) and every field it refines.
std::string ExampleIdWith(const OptionField& field, const FilterOptions& options);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_OPTION_FIELDS_H_
