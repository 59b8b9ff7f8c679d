#include "bench/ratio_reporter.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <vector>

#include "absl/strings/str_format.h"
#include "bench/filter_impls.h"
#include "bench/speed_targets.h"
#include "filter/encoding_id.h"

namespace sstfilter::bench {
namespace {

// Ratio "other / reference" as text, "-" when either is missing.
std::string Ratio(double other, double reference) {
  if (other <= 0 || reference <= 0) return "-";
  return absl::StrFormat("%.2fx", other / reference);
}

struct PairedRatios {
  int count;
  double median, low, high;
};

// Ratios of runs paired in order, when both sides ran equally often and
// more than once.
std::optional<PairedRatios> PairRuns(const std::vector<double>& ours,
                                     const std::vector<double>& peer) {
  if (ours.size() < 2 || ours.size() != peer.size()) return std::nullopt;
  std::vector<double> ratios;
  for (size_t i = 0; i < ours.size(); ++i) {
    if (ours[i] <= 0 || peer[i] <= 0) return std::nullopt;
    ratios.push_back(ours[i] / peer[i]);
  }
  std::sort(ratios.begin(), ratios.end());
  const size_t n = ratios.size();
  const double median = n % 2 == 1 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
  return PairedRatios{static_cast<int>(n), median, ratios.front(), ratios.back()};
}

}  // namespace

RatioReporter::RatioReporter(std::vector<std::string> impls, std::string header)
    : ConsoleReporter(isatty(fileno(stdout)) ? OO_ColorTabular : OO_Tabular),
      impls_(std::move(impls)),
      header_(std::move(header)) {}

void RatioReporter::ReportRuns(const std::vector<Run>& reports) {
  ConsoleReporter::ReportRuns(reports);
  for (const Run& run : reports) {
    if (run.error_occurred || run.run_type != Run::RT_Iteration) continue;
    const std::string& name = run.run_name.function_name;
    const size_t slash = name.rfind('/');
    if (slash == std::string::npos) continue;
    const std::string case_name = name.substr(0, slash);
    const std::string impl = name.substr(slash + 1);
    if (std::find(cases_.begin(), cases_.end(), case_name) == cases_.end()) {
      cases_.push_back(case_name);
    }
    auto counter = [&run](const char* key, double fallback) {
      auto it = run.counters.find(key);
      return it == run.counters.end() ? fallback : it->second.value;
    };
    Cell next;
    next.ns_per_key = counter(kPerKeyCounter, 0) * 1e9;
    next.match = counter(kMatchCounter, -1);
    next.bits_per_key = counter(kBitsPerKeyCounter, -1);
    // A case run more than once (interleaved rounds, repetitions) keeps its fastest run.
    auto [it, first] = cells_[case_name].try_emplace(impl, next);
    Cell& cell = it->second;
    if (!first && next.ns_per_key > 0 && next.ns_per_key < cell.ns_per_key) {
      next.runs_ns = std::move(cell.runs_ns);
      cell = std::move(next);
    }
    cell.runs_ns.push_back(counter(kPerKeyCounter, 0) * 1e9);
  }
}

double RatioReporter::NsPerKey(const std::string& case_name,
                               const std::string& impl) const {
  auto c = cells_.find(case_name);
  if (c == cells_.end()) return 0;
  auto k = c->second.find(impl);
  return k == c->second.end() ? 0 : k->second.ns_per_key;
}

std::vector<double> RatioReporter::Runs(const std::string& case_name,
                                        const std::string& impl) const {
  auto c = cells_.find(case_name);
  if (c == cells_.end()) return {};
  auto k = c->second.find(impl);
  return k == c->second.end() ? std::vector<double>() : k->second.runs_ns;
}

void RatioReporter::PrintTable() const {
  const std::string& ref = impls_.front();
  int width = 28;  // The case column: the longest case name, at least this.
  for (const std::string& case_name : cases_) {
    width = std::max(width, static_cast<int>(case_name.size()));
  }
  std::string out = absl::StrFormat(
      "\nSummary: ns per key (CPU time); (r) = that implementation / %s, above 1.00x means %s is faster\n%s\n",
      ref, ref, header_);
  out += absl::StrFormat("%-*s", width, "case");
  for (const std::string& impl : impls_) out += absl::StrFormat(" %18s", impl);
  out += "\n";
  for (const std::string& case_name : cases_) {
    out += absl::StrFormat("%-*s", width, case_name);
    const double reference = NsPerKey(case_name, ref);
    for (const std::string& impl : impls_) {
      const double ns = NsPerKey(case_name, impl);
      if (ns <= 0) {
        out += absl::StrFormat(" %18s", "-");
      } else if (impl == ref) {
        out += absl::StrFormat(" %18.2f", ns);
      } else {
        out += absl::StrFormat(" %10.2f (%5s)", ns, Ratio(ns, reference));
      }
    }
    out += "\n";
  }
  // Filter size and the FP rate seen by the in-cache absent queries.
  auto extra_row = [&](const char* label, const std::string& case_name, bool bits) {
    auto c = cells_.find(case_name);
    if (c == cells_.end()) return;
    out += absl::StrFormat("%-*s", width, label);
    for (const std::string& impl : impls_) {
      auto k = c->second.find(impl);
      const double v = k == c->second.end() ? -1
                       : bits                 ? k->second.bits_per_key
                                              : k->second.match * 100;
      out += v < 0 ? absl::StrFormat(" %18s", "-") : absl::StrFormat(" %18.3f", v);
    }
    out += "\n";
  };
  extra_row("filter bits/key", "Build", true);
  extra_row("FP % (InCache/absent)", "InCache/absent", false);
  std::fputs(out.c_str(), stdout);
}

void RatioReporter::PrintRatiosTo(const std::string& peer, const std::string& prefix,
                                  bool only_prefix) const {
  std::vector<std::string> cases;
  for (const std::string& case_name : cases_) {
    if ((case_name.rfind(prefix, 0) == 0) == only_prefix) cases.push_back(case_name);
  }
  if (cases.empty()) return;
  std::string out = absl::StrFormat(
      "\nTime / %s per case (below 1.00x: faster than %s)\n%-28s", peer, peer, "case");
  for (const std::string& impl : impls_) out += absl::StrFormat(" %16s", impl);
  out += "\n";
  for (const std::string& case_name : cases) {
    out += absl::StrFormat("%-28s", case_name);
    const double peer_ns = NsPerKey(case_name, peer);
    for (const std::string& impl : impls_) {
      out += absl::StrFormat(" %16s", Ratio(NsPerKey(case_name, impl), peer_ns));
    }
    out += "\n";
  }
  std::fputs(out.c_str(), stdout);
}

void RatioReporter::PrintTargets() const {
  const std::string& ref = impls_.front();
  std::string out = absl::StrFormat("\nSpeed targets for %s:\n", ref);
  auto line = [&out](const std::string& what, double ratio, double target) {
    if (ratio <= 0) {
      out += absl::StrFormat("  %-62s  not measured in this run\n", what);
      return;
    }
    out += absl::StrFormat("  %-62s %5.2fx (target >= %.1fx) %s\n", what, ratio,
                           target, ratio >= target ? "MET" : "MISSED");
  };
  auto speedup = [this](const std::string& slow_case, const std::string& slow_kind,
                        const std::string& fast_case, const std::string& fast_kind) {
    const double slow = NsPerKey(slow_case, slow_kind);
    const double fast = NsPerKey(fast_case, fast_kind);
    return slow > 0 && fast > 0 ? slow / fast : 0.0;
  };
  for (const char* which : {"present", "absent"}) {
    const std::string c = std::string("InCache/") + which;
    line("query in cache (" + std::string(which) + ") vs libleveldb KeyMayMatch",
         speedup(c, "libleveldb", c, ref), 1.3);
  }
  line("build vs libleveldb CreateFilter", speedup("Build", "libleveldb", "Build", ref), 1.5);
  for (const char* b : {"8", "16", "32"}) {
    const std::string batched = std::string("OutOfCache/batch") + b + "/batched";
    line(std::string("out of cache, batch of ") + b + ": batched vs one by one",
         speedup(std::string("OutOfCache/batch") + b + "/loop", ref, batched, ref), 1.5);
    line(std::string("out of cache, batch of ") + b + ": batched vs single random query",
         speedup("OutOfCache/absent", ref, batched, ref), 1.5);
  }
  std::fputs(out.c_str(), stdout);
}

void RatioReporter::PrintVersusFastLocalBloom(const std::string& ours,
                                              const SpeedTargets* targets) const {
  // Time as a fraction of RocksDB's FastLocalBloom on the same keys; lower is
  // better. target 0: none declared.
  const std::string peer = kFastLocalBloomImpl;
  std::string out = absl::StrFormat("\nTargets for %s (time / %s)%s:\n", ours, peer,
                                    targets == nullptr ? ": none declared (bench/speed_targets.cc)"
                                                       : "");
  auto line = [&](const std::string& case_name, double target) {
    const double ns = NsPerKey(case_name, ours);
    const double peer_ns = NsPerKey(case_name, peer);
    if (ns <= 0 || peer_ns <= 0) {
      out += absl::StrFormat("  %-62s  not measured in this run\n", case_name);
      return;
    }
    const double fastest_ratio = ns / peer_ns;
    const std::optional<PairedRatios> paired =
        PairRuns(Runs(case_name, ours), Runs(case_name, peer));
    const double ratio = paired ? paired->median : fastest_ratio;
    if (target > 0) {
      out += absl::StrFormat("  %-62s %5.2fx (target <= %.1fx) %s", case_name, ratio, target,
                             ratio <= target ? "MET" : "MISSED");
    } else {
      out += absl::StrFormat("  %-62s %5.2fx (no target)", case_name, ratio);
    }
    if (paired) {
      out += absl::StrFormat("  [median of %d paired runs, range %.2f-%.2fx; fastest %.2fx]",
                             paired->count, paired->low, paired->high, fastest_ratio);
    }
    out += "\n";
  };
  if (targets != nullptr) {
    for (const CaseTarget& t : targets->versus_fast_local_bloom) line(t.case_name, t.max_ratio);
  }
  // Every other case both ran (all of them without targets), the ViaRocksDB
  // ones (through RocksDB's reader, via_rocksdb_cases.h) at their targets by
  // shape.
  for (const std::string& c : cases_) {
    if (NsPerKey(c, ours) <= 0 || NsPerKey(c, peer) <= 0) continue;
    const bool declared =
        targets != nullptr &&
        std::any_of(targets->versus_fast_local_bloom.begin(),
                    targets->versus_fast_local_bloom.end(),
                    [&c](const CaseTarget& t) { return c == t.case_name; });
    if (declared) continue;
    const bool via_rocksdb = c.rfind(kViaRocksDbPrefix, 0) == 0;
    if (!via_rocksdb && targets != nullptr) continue;  // Cases it has no target for.
    double target = 0;
    if (via_rocksdb && targets != nullptr) {
      const bool single_out_of_cache = c.find("/OutOfCache/") != std::string::npos &&
                                       c.find("/batch") == std::string::npos;
      target = single_out_of_cache ? targets->via_rocksdb_out_of_cache_single
                                   : targets->via_rocksdb_other;
    }
    line(c, target);
  }
  std::fputs(out.c_str(), stdout);
}

void RatioReporter::PrintFasterThan(const std::string& ours, const std::string& peer) const {
  std::string out =
      absl::StrFormat("\nTargets for %s (time / %s, every case measured for both):\n", ours, peer);
  size_t measured = 0, met = 0;
  for (const std::string& case_name : cases_) {
    const double ns = NsPerKey(case_name, ours), peer_ns = NsPerKey(case_name, peer);
    if (ns <= 0 || peer_ns <= 0) continue;
    ++measured;
    met += ns < peer_ns;
    out += absl::StrFormat("  %-62s %5.2fx (target < 1.0x) %s\n", case_name, ns / peer_ns,
                           ns < peer_ns ? "MET" : "MISSED");
  }
  if (measured == 0) out += "  not measured in this run\n";
  if (measured > 0) out += absl::StrFormat("  faster in %d of %d cases\n", met, measured);
  std::fputs(out.c_str(), stdout);
}

void RatioReporter::Finalize() {
  ConsoleReporter::Finalize();
  if (impls_.empty() || cases_.empty()) return;
  PrintTable();
  PrintRatiosTo(kFastLocalBloomImpl, kViaLevelDbPrefix, /*only_prefix=*/false);
  PrintRatiosTo(kLibLevelDbImpl, kViaLevelDbPrefix, /*only_prefix=*/true);
  PrintTargets();
  // Our encodings other than the reference, each against FastLocalBloom
  // and, where declared, Ribbon: the targets declared for it, or none.
  for (EncodingId encoding : AllEncodingIds()) {
    const std::string ours = OurImplName(EncodingName(encoding));
    if (ours == impls_.front()) continue;  // Its targets: PrintTargets.
    const SpeedTargets* targets = SpeedTargetsFor(encoding);
    PrintVersusFastLocalBloom(ours, targets);
    if (targets != nullptr && targets->faster_than_ribbon) PrintFasterThan(ours, kRibbonImpl);
  }
  std::fflush(stdout);
}

}  // namespace sstfilter::bench
