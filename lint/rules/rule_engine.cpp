#include "lint/rules/rule_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <unordered_map>

#include "lint/rules/rule_variables.h"
#include "lint/util/strings.h"

namespace gpulint {
namespace {

bool MatchesPrefix(const Rule& rule, const std::vector<std::string>& patterns) {
  for (const std::string& pattern : patterns)
    if (StartsWith(rule.id, pattern) || rule.name == pattern) return true;
  return false;
}

bool Applies(const Rule& rule, const Workload& workload) {
  auto has = [](const std::vector<std::string>& list, const std::string& value) {
    return list.empty() || std::find(list.begin(), list.end(), value) != list.end();
  };
  return has(rule.roles, workload.role) && has(rule.frameworks, workload.framework);
}

// The span a finding points at: the first of the rule's `at` settings that is written down,
// else the command.
// Line 1, column 1: for findings about a file with no better place (a Python file named directly
// has no command line of its own).
SourceSpan FileStart(const RunConfig& config) {
  SourceSpan span;
  span.path = config.path;
  span.line = 1;
  span.col = 1;
  span.length = 0;
  return span;
}

// `reading`: the setting whose meaning decides the verdict (readings.h), for `at = ["reading"]`.
SourceSpan AnchorOf(const Rule& rule, const Workload& workload, const RunConfig& config,
                    const std::string& reading = "") {
  for (const std::string& name : rule.at) {
    if (name == "reading") {
      const Setting* setting = reading.empty() ? nullptr : workload.Find(reading);
      if (setting && setting->span.valid()) return setting->span;
      // A GPU named without its size (JudgeGpuSize): where the script names it.
      if (reading == "gpu" && config.cluster.gpu && config.cluster.gpu->span.valid())
        return config.cluster.gpu->span;
      continue;
    }
    if (StartsWith(name, "cluster.")) {
      std::string field = name.substr(8);
      const std::optional<Setting>* setting = field == "gpu"             ? &config.cluster.gpu
                                              : field == "gpus_per_node" ? &config.cluster.gpus_per_node
                                              : field == "nodes"         ? &config.cluster.nodes
                                                                         : nullptr;
      if (setting && *setting && (*setting)->span.valid()) return (*setting)->span;
      continue;
    }
    const Setting* setting = workload.Find(name);
    if (setting && setting->span.valid()) return setting->span;
  }
  if (!workload.command_span.valid()) return FileStart(config);
  SourceSpan span = workload.command_span;
  if (span.length == 0) span.length = 1;
  return span;
}

SourceSpan FileAnchor(const Rule& rule, const RunConfig& config) {
  for (const std::string& name : rule.at) {
    const std::optional<Setting>* setting = name == "cluster.gpu"             ? &config.cluster.gpu
                                            : name == "cluster.gpus_per_node" ? &config.cluster.gpus_per_node
                                            : name == "cluster.nodes"         ? &config.cluster.nodes
                                                                              : nullptr;
    if (setting && *setting && (*setting)->span.valid()) return (*setting)->span;
  }
  if (!config.workloads.empty() && config.workloads.front().command_span.valid())
    return config.workloads.front().command_span;
  return FileStart(config);
}

template <typename Lookup>
Finding MakeFinding(const Rule& rule, Lookup& lookup, SourceSpan span) {
  Finding finding;
  finding.rule = rule.id;
  finding.name = rule.name;
  finding.severity = rule.severity;
  finding.message = RenderMessage(rule, lookup);
  finding.span = std::move(span);
  finding.url = RuleUrl(rule);
  finding.command_line = finding.span.line;
  return finding;
}

bool Holds(const Rule& rule, MemoLookup& lookup) {
  ExprValue value = Evaluate(*rule.when, lookup);
  return !value.missing && value.boolean;
}

// A fix that writes concrete values over settings that are written in a linted file.
struct Suppression {
  int line = 0;            ///< the line it covers
  int comment_line = 0;
  SourceSpan span;
  std::vector<std::string> ids;
  bool file_wide = false;
  std::set<std::string> used;
};

std::vector<Suppression> ParseSuppressions(const FileAnalysis& analysis) {
  std::vector<Suppression> out;
  for (const CommentLine& comment : analysis.read.config.comments) {
    std::string_view text = Trim(comment.text);
    if (!StartsWith(text, "gpulint:")) continue;
    std::string body(Trim(text.substr(8)));
    size_t reason = body.find(" --");
    if (reason != std::string::npos) body = body.substr(0, reason);
    for (const std::string& token : SplitAny(body, " \t")) {
      bool file_wide = StartsWith(token, "disable-file=");
      if (!file_wide && !StartsWith(token, "disable=")) continue;
      Suppression s;
      s.file_wide = file_wide;
      s.comment_line = comment.line;
      s.line = comment.own_line ? comment.line + 1 : comment.line;
      s.ids = SplitAny(token.substr(token.find('=') + 1), ",");
      s.span = analysis.sources->Span(0, comment.offset, comment.text.size() + 1);
      out.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace

bool CheckRuleChoices(const RuleSet& rules, const LintSettings& settings, std::string* error) {
  auto known = [&](const std::string& pattern) {
    for (const auto& rule : rules.rules())
      if (MatchesPrefix(*rule, {pattern})) return true;
    return false;
  };
  // A typo (GL1O1) that matches no rule would silently turn every rule off under --select, or
  // ignore nothing: both are refused, as ruff refuses an unknown code.
  for (const auto* list : {&settings.select, &settings.ignore}) {
    for (const std::string& pattern : *list) {
      if (known(pattern)) continue;
      *error = fmt::format("'{}' is no rule's id, id prefix or name: --{} / gpulint.toml {}",
                           pattern, list == &settings.select ? "select" : "ignore",
                           list == &settings.select ? "select" : "ignore");
      return false;
    }
  }
  for (const auto& [id, severity] : settings.severity) {
    Severity parsed;
    if (!rules.Find(id)) {
      *error = fmt::format("[severity] {}: no rule has this id or name: gpulint.toml", id);
      return false;
    }
    if (!ParseSeverity(severity, &parsed)) {
      *error = fmt::format(
          "[severity] {} = \"{}\": a severity is error, warning or info: "
          "gpulint.toml",
          id, severity);
      return false;
    }
  }
  return true;
}

bool IsSelected(const Rule& rule, const LintSettings& settings) {
  if (!settings.select.empty() && !MatchesPrefix(rule, settings.select)) return false;
  return !MatchesPrefix(rule, settings.ignore);
}

std::vector<Finding> LintFile(const FileAnalysis& analysis, const RuleSet& rules,
                              const LintSettings& settings, const FixProvider& fixes) {
  std::vector<Finding> findings;
  const RunConfig& config = analysis.read.config;
  const FileFacts facts = ComputeFileFacts(analysis);
  std::set<std::string> seen;  // one finding per rule, place and message
  auto add = [&](Finding finding) {
    std::string key = fmt::format("{}|{}|{}|{}|{}", finding.rule, finding.span.path,
                                  finding.span.line, finding.span.col, finding.message);
    if (seen.insert(key).second) findings.push_back(std::move(finding));
  };

  // One memoized lookup per workload and one for the file, shared by every rule: rules read
  // the same few values (est.total_gib, gpu.usable_gib), some of them costly (what-if
  // estimates).
  std::vector<MemoLookup> workload_lookups;
  for (size_t i = 0; i < config.workloads.size(); ++i)
    workload_lookups.emplace_back(WorkloadLookup(analysis, i, settings.headroom));
  MemoLookup file_lookup(FileLookup(analysis, facts, settings.headroom));

  for (const auto& rule_ptr : rules.rules()) {
    const Rule& rule = *rule_ptr;
    const std::string_view scope = rule.scope;  // compared by length first, unlike std::string
    if (!IsSelected(rule, settings) || scope == "builtin") continue;
    if (scope == "workload") {
      for (size_t i = 0; i < config.workloads.size(); ++i) {
        const Workload& workload = config.workloads[i];
        if (!Applies(rule, workload)) continue;
        MemoLookup& lookup = workload_lookups[i];
        if (!Holds(rule, lookup)) continue;
        const std::string& reading =
            i < analysis.estimates.size() ? analysis.estimates[i].reading_setting : "";
        Finding finding = MakeFinding(rule, lookup, AnchorOf(rule, workload, config, reading));
        finding.command_line = workload.command_span.line;
        if ((!rule.fix_set.empty() || !rule.fix_objective.empty()) && fixes)
          if (auto fix = fixes(analysis, i, rule)) finding.fixes.push_back(*fix);
        add(std::move(finding));
      }
    } else if (scope == "file") {
      if (Holds(rule, file_lookup))
        add(MakeFinding(rule, file_lookup, FileAnchor(rule, config)));
    } else if (scope == "device") {
      // GPUs with the same workloads and the same peak make one finding ("GPUs 0-7").
      std::vector<std::pair<const DeviceLoad*, std::vector<int>>> groups;
      for (const DeviceLoad& load : analysis.devices) {
        auto same = std::find_if(groups.begin(), groups.end(), [&load](const auto& group) {
          return group.first->workloads == load.workloads &&
                 group.first->peak_workloads == load.peak_workloads &&
                 std::abs(group.first->bytes - load.bytes) < 1024.0 * 1024.0;
        });
        if (same == groups.end()) groups.push_back({&load, {load.device}});
        else same->second.push_back(load.device);
      }
      for (const auto& [load_ptr, devices] : groups) {
        const DeviceLoad& load = *load_ptr;
        MemoLookup lookup(DeviceLookup(analysis, load, devices, settings.headroom));
        if (!Holds(rule, lookup)) continue;
        const std::vector<int>& live =
            load.peak_workloads.empty() ? load.workloads : load.peak_workloads;
        const Workload& first = config.workloads[static_cast<size_t>(live.front())];
        Finding finding = MakeFinding(rule, lookup, AnchorOf(rule, first, config));
        finding.command_line = first.command_span.line;
        for (int index : live)
          finding.related.push_back(config.workloads[static_cast<size_t>(index)].command_span);
        add(std::move(finding));
      }
    } else if (scope == "unresolved") {
      for (const Unresolved& unresolved : config.unresolved) {
        MemoLookup lookup(UnresolvedLookup(unresolved));
        if (!Holds(rule, lookup) || !unresolved.span.valid()) continue;
        add(MakeFinding(rule, lookup, unresolved.span));
      }
    } else if (scope == "notice") {
      for (const Notice& notice : config.notices) {
        MemoLookup lookup(NoticeLookup(notice));
        if (!Holds(rule, lookup) || !notice.span.valid()) continue;
        add(MakeFinding(rule, lookup, notice.span));
      }
    } else if (scope == "invalid") {
      for (const InvalidValue& invalid : config.invalid) {
        MemoLookup lookup(InvalidLookup(invalid));
        if (!Holds(rule, lookup) || !invalid.span.valid()) continue;
        add(MakeFinding(rule, lookup, invalid.span));
      }
    }
  }

  // Severity overrides.
  for (Finding& finding : findings) {
    auto it = settings.severity.find(finding.rule);
    if (it != settings.severity.end()) ParseSeverity(it->second, &finding.severity);
  }

  // Suppressions.
  if (settings.inline_suppress) {
    std::vector<Suppression> suppressions = ParseSuppressions(analysis);
    std::vector<Finding> kept;
    for (Finding& finding : findings) {
      bool suppressed = false;
      for (Suppression& s : suppressions) {
        // An id (GL302) or a name (context-above-model-positions) names the rule.
        auto named = std::find_if(s.ids.begin(), s.ids.end(), [&](const std::string& id) {
          const Rule* rule = rules.Find(id);
          return rule && rule->id == finding.rule;
        });
        if (named == s.ids.end()) continue;
        bool here = finding.span.path == config.path &&
                    (finding.span.line == s.line || finding.command_line == s.line);
        if (s.file_wide || here) {
          s.used.insert(*named);
          suppressed = true;
        }
      }
      if (!suppressed) kept.push_back(std::move(finding));
    }
    findings = std::move(kept);
    const Rule* unknown_rule = rules.Find("GL001");
    const Rule* unused_rule = rules.Find("GL002");
    for (const Suppression& s : suppressions) {
      for (const std::string& id : s.ids) {
        bool known = rules.Find(id) != nullptr;
        const Rule* report = known ? unused_rule : unknown_rule;
        if (!report || !IsSelected(*report, settings)) continue;
        if (known && (s.used.count(id) || !IsSelected(*rules.Find(id), settings))) continue;
        MemoLookup lookup([&id](const std::string& name) {
          return name == "suppression.id" ? ExprValue::String(id) : ExprValue::Missing();
        });
        Finding finding = MakeFinding(*report, lookup, s.span);
        findings.push_back(std::move(finding));
      }
    }
  }
  std::sort(findings.begin(), findings.end(), FindingLess);
  return findings;
}

}  // namespace gpulint
