// Helpers for rule tests: lint a file in-process with no configuration, and read the
// `# expect: ID` markers that fixtures carry.
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lint/core/finding.h"
#include "lint/rules/linter.h"

namespace gpulint::testing {

struct LintOutcome {
  bool ok = false;          ///< false: an input or configuration error (see `error`)
  std::string error;
  std::vector<Finding> findings;
};

/// Lints one file as `gpulint lint --isolated FILE` would, in-process; `choices` are what the
/// command line would add (--select, --ignore, --headroom, --no-inline-suppress).
LintOutcome LintPath(const std::string& path, const LintChoices& choices = {});

/// (line, rule id) pairs a fixture expects, from comments of the form
///   `# expect: GL101, GL107`      this line when trailing, the next line when on its own line
///   `# expect@+2: GL101`          2 lines below the comment (`@-1`: the line above)
std::multiset<std::pair<int, std::string>> ReadExpectations(const std::string& text);

/// The findings as (line, rule id) pairs.
std::multiset<std::pair<int, std::string>> LinesAndRules(const std::vector<Finding>& findings);

/// The rule ids of the findings, in order.
std::vector<std::string> RuleIds(const std::vector<Finding>& findings);

/// The rule ids `script` gets, written to a temporary `name` and linted as LintPath does;
/// empty with a failed test check when it does not lint.
std::vector<std::string> RulesOfScript(const std::string& script,
                                       const std::string& name = "run.sh");

/// Whether `id` is among `rules`.
bool HasRule(const std::vector<std::string>& rules, const std::string& id);

}  // namespace gpulint::testing
