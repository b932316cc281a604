// The rules in force: the built-in pack (rules/GL*.toml, compiled in) and a project's own packs
// (gpulint.toml `rules = [...]`). Ids are unique; a pack that reuses one is an error.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lint/rules/rule.h"

namespace gpulint {

class RuleSet {
 public:
  /// Loads the built-in rules. False with `error` only when one is broken (a build defect).
  /// Without docs (what `lint` needs) it parses a third of the text. Without `type_check` it
  /// skips checking variables and types against the schema, which costs parsing
  /// rules/settings.toml at every start; the built-in rules are checked by the test suite
  /// (tests/rules/rule_pack_test.cpp), so `lint` trusts them.
  bool LoadBuiltIn(std::string* error, bool with_docs = true, bool type_check = true);
  /// Adds the rules of a file; false with "what: file:line:col (rule id)" on error.
  bool AddFile(const std::string& path, std::string* error);
  bool AddText(const std::string& text, const std::string& path, std::string* error,
               bool with_docs = true, bool type_check = true);

  const std::vector<std::unique_ptr<Rule>>& rules() const { return rules_; }
  /// By id (GL101) or name (out-of-memory); nullptr when unknown.
  const Rule* Find(const std::string& id_or_name) const;

 private:
  std::vector<std::unique_ptr<Rule>> rules_;
};

/// docs/rules/README.md: a table of every rule with a link to its page.
std::string RuleIndexMarkdown(const RuleSet& rules);

}  // namespace gpulint
