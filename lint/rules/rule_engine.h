// Runs the rules over one analyzed file and returns its findings: per workload, per file, per
// shared GPU and per unresolved value, then applies selection, severity overrides and
// `# gpulint: disable=` suppressions (reporting unknown and unused ones).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lint/analysis/file_analysis.h"
#include "lint/config/project_config.h"
#include "lint/core/finding.h"
#include "lint/rules/rule_set.h"

namespace gpulint {

struct LintSettings {
  std::vector<std::string> select;              ///< ids or prefixes; empty: all
  std::vector<std::string> ignore;
  std::map<std::string, std::string> severity;  ///< id -> error | warning | info
  double headroom = kDefaultHeadroom;
  bool inline_suppress = true;
};

/// Computes the fix of a finding whose rule has one (a setting or a tuner objective); wired in by
/// the CLI so that the rule engine does not depend on the tuner.
using FixProvider = std::function<std::optional<Fix>(const FileAnalysis& analysis,
                                                     size_t workload, const Rule& rule)>;

/// True when `rule` is selected by `settings` (select/ignore by id prefix or name).
bool IsSelected(const Rule& rule, const LintSettings& settings);

/// False with `error` when --select, --ignore or [severity] names no rule, or [severity] gives
/// a level that is not error, warning or info.
bool CheckRuleChoices(const RuleSet& rules, const LintSettings& settings, std::string* error);

std::vector<Finding> LintFile(const FileAnalysis& analysis, const RuleSet& rules,
                              const LintSettings& settings, const FixProvider& fixes = nullptr);

}  // namespace gpulint
