#include "tests/support/lint_helpers.h"

#include <catch2/catch.hpp>
#include <re2/re2.h>

#include <algorithm>

#include <sstream>

#include "lint/cli/options.h"
#include "lint/util/strings.h"
#include "lint/workspace/workspace.h"
#include "tests/support/process.h"
#include "tuner/fix_provider.h"

namespace gpulint::testing {

LintOutcome LintPath(const std::string& path, const LintChoices& choices) {
  LintOutcome outcome;
  InputOptions options;
  options.paths = {path};
  options.isolated = true;
  Workspace workspace(options);
  std::vector<LoadedFile> files;
  if (!workspace.Init(&outcome.error) || !workspace.LoadInputs(&files, &outcome.error))
    return outcome;
  LintChoices with_fixes = choices;
  with_fixes.fixes = [](Workspace& each, const LintSettings& settings) {
    TunerOptions tuner;
    tuner.headroom = settings.headroom;
    return MakeTunerFixProvider(each.maps(), tuner);
  };
  Linter linter(with_fixes);
  if (!linter.Init(&outcome.error)) return outcome;
  for (const LoadedFile& file : files) {
    LintedFile linted;
    if (!linter.Lint(workspace, file, &linted, &outcome.error)) return outcome;
    outcome.findings.insert(outcome.findings.end(), linted.findings.begin(),
                            linted.findings.end());
  }
  outcome.ok = true;
  return outcome;
}

std::multiset<std::pair<int, std::string>> ReadExpectations(const std::string& text) {
  static const RE2 kMarker(R"(#\s*expect(?:@([+-]\d+))?:\s*([A-Z]+\d+(?:\s*,\s*[A-Z]+\d+)*))");
  std::multiset<std::pair<int, std::string>> out;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::string offset, ids;
    re2::StringPiece input(line), marker;
    if (!kMarker.Match(input, 0, input.size(), RE2::UNANCHORED, &marker, 1)) continue;
    RE2::PartialMatch(input, kMarker, &offset, &ids);
    // Own line: nothing but blanks before the marker ("#SBATCH ...  # expect:" is trailing).
    size_t at = static_cast<size_t>(marker.data() - input.data());
    bool own_line = Trim(std::string_view(line).substr(0, at)).empty();
    int target = !offset.empty() ? number + std::stoi(offset) : own_line ? number + 1 : number;
    for (const std::string& id : SplitAny(ids, ", ")) out.insert({target, id});
  }
  return out;
}

std::multiset<std::pair<int, std::string>> LinesAndRules(const std::vector<Finding>& findings) {
  std::multiset<std::pair<int, std::string>> out;
  for (const Finding& finding : findings) out.insert({finding.span.line, finding.rule});
  return out;
}

std::vector<std::string> RuleIds(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const Finding& finding : findings) out.push_back(finding.rule);
  return out;
}

std::vector<std::string> RulesOfScript(const std::string& script, const std::string& name) {
  TempDir dir;
  LintOutcome outcome = LintPath(dir.Write(name, script));
  INFO(outcome.error);
  CHECK(outcome.ok);
  return RuleIds(outcome.findings);
}

bool HasRule(const std::vector<std::string>& rules, const std::string& id) {
  return std::find(rules.begin(), rules.end(), id) != rules.end();
}

}  // namespace gpulint::testing
