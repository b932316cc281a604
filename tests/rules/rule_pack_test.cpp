// The built-in rule pack checks itself: every rule has complete documentation, a bad fixture
// whose `# expect:` markers list exactly the findings gpulint reports, a good fixture with no
// findings at all, and documentation examples that do (and do not) trigger it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <re2/re2.h>
#include <set>
#include <stdexcept>

#include "lint/reader/framework_map.h"
#include "lint/rules/rule_set.h"
#include "tests/support/lint_helpers.h"
#include "tests/support/process.h"
#include "tuner/edits.h"

using namespace gpulint;
using namespace gpulint::testing;
namespace fs = std::filesystem;

namespace {

const RuleSet& BuiltIn() {
  static RuleSet rules = [] {
    RuleSet set;
    std::string error;
    if (!set.LoadBuiltIn(&error)) throw std::runtime_error(error);
    return set;
  }();
  return rules;
}

// fixtures/rules/GL101/bad.sh (or bad.py, bad.yaml); "" when absent.
std::string FixtureOf(const std::string& id, const std::string& stem) {
  fs::path dir = SourcePath("fixtures/rules/" + id);
  if (!fs::is_directory(dir)) return "";
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().stem() == stem) return entry.path().string();
  return "";
}

std::string Describe(const std::multiset<std::pair<int, std::string>>& items) {
  std::string out;
  for (const auto& [line, id] : items) out += " " + id + "@" + std::to_string(line);
  return out.empty() ? " (none)" : out;
}

std::string DescribeFindings(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& f : findings)
    out += "\n  " + std::to_string(f.span.line) + ":" + std::to_string(f.span.col) + " " +
           f.rule + " " + f.message;
  return out;
}

}  // namespace

TEST_CASE("every built-in rule has an id, a unique name and complete documentation",
          "[rules]") {
  static const RE2 kId(R"(GL\d{3})");
  static const RE2 kName(R"([a-z0-9]+(-[a-z0-9]+)*)");
  std::set<std::string> names;
  REQUIRE(BuiltIn().rules().size() >= 30);
  for (const auto& rule : BuiltIn().rules()) {
    INFO(rule->id);
    CHECK(RE2::FullMatch(rule->id, kId));
    CHECK(RE2::FullMatch(rule->name, kName));
    CHECK(names.insert(rule->name).second);
    CHECK_FALSE(rule->doc.what.empty());
    CHECK_FALSE(rule->doc.why.empty());
    CHECK_FALSE(rule->doc.example.empty());
    CHECK_FALSE(rule->doc.instead.empty());
    CHECK(rule->doc.example != rule->doc.instead);
    CHECK_FALSE(rule->doc.fix.empty());
    // One rule, one file, named after it.
    CHECK(fs::exists(SourcePath("rules/" + rule->id + "-" + rule->name + ".toml")));
  }
}

TEST_CASE("every rule's bad fixture reports exactly the findings its markers expect",
          "[rules][fixtures]") {
  for (const auto& rule : BuiltIn().rules()) {
    DYNAMIC_SECTION(rule->id) {
      std::string bad = FixtureOf(rule->id, "bad");
      REQUIRE_FALSE(bad.empty());
      auto expected = ReadExpectations(ReadWholeFile(bad));
      // The fixture must exercise its own rule.
      bool mentions_rule = false;
      for (const auto& item : expected) mentions_rule = mentions_rule || item.second == rule->id;
      CHECK(mentions_rule);
      LintOutcome outcome = LintPath(bad);
      REQUIRE(outcome.ok);
      INFO(bad << "\nexpected:" << Describe(expected)
               << "\nreported:" << DescribeFindings(outcome.findings));
      CHECK(LinesAndRules(outcome.findings) == expected);
    }
  }
}

TEST_CASE("every rule's good fixture is clean", "[rules][fixtures]") {
  for (const auto& rule : BuiltIn().rules()) {
    DYNAMIC_SECTION(rule->id) {
      std::string good = FixtureOf(rule->id, "good");
      REQUIRE_FALSE(good.empty());
      LintOutcome outcome = LintPath(good);
      REQUIRE(outcome.ok);
      INFO(good << DescribeFindings(outcome.findings));
      CHECK(outcome.findings.empty());
    }
  }
}

TEST_CASE("fixture folders belong to rules and hold only bad, good and fixed files",
          "[rules][fixtures]") {
  for (const auto& entry : fs::directory_iterator(SourcePath("fixtures/rules"))) {
    INFO(entry.path().string());
    REQUIRE(entry.is_directory());
    CHECK(BuiltIn().Find(entry.path().filename().string()) != nullptr);
    for (const auto& file : fs::directory_iterator(entry.path())) {
      std::string stem = file.path().stem().string();
      CHECK((stem == "bad" || stem == "good" || stem == "bad.fixed"));
    }
  }
}

TEST_CASE("a rule's documented example triggers it and the alternative does not", "[rules]") {
  for (const auto& rule : BuiltIn().rules()) {
    DYNAMIC_SECTION(rule->id) {
      TempDir dir;
      std::string example = dir.Write("example/" + rule->doc.file, rule->doc.example + "\n");
      std::string instead = dir.Write("instead/" + rule->doc.file, rule->doc.instead + "\n");
      LintOutcome with = LintPath(example);
      LintOutcome without = LintPath(instead);
      REQUIRE(with.ok);
      REQUIRE(without.ok);
      auto has = [&](const LintOutcome& outcome) {
        for (const Finding& f : outcome.findings)
          if (f.rule == rule->id) return true;
        return false;
      };
      INFO("example:" << DescribeFindings(with.findings)
                      << "\ninstead:" << DescribeFindings(without.findings));
      CHECK(has(with));
      CHECK_FALSE(has(without));
    }
  }
}

TEST_CASE("a rule's fix turns its bad fixture into bad.fixed", "[rules][fixtures]") {
  size_t with_fix = 0;
  for (const auto& rule : BuiltIn().rules())
    with_fix += rule->fix_set.empty() && rule->fix_objective.empty() ? 0 : 1;
  REQUIRE(with_fix >= 5);
  for (const auto& rule : BuiltIn().rules()) {
    if (rule->fix_set.empty() && rule->fix_objective.empty()) continue;
    DYNAMIC_SECTION(rule->id) {
      std::string bad = FixtureOf(rule->id, "bad");
      std::string fixed = FixtureOf(rule->id, "bad.fixed");
      REQUIRE_FALSE(fixed.empty());
      LintOutcome outcome = LintPath(bad);
      REQUIRE(outcome.ok);
      std::vector<Edit> edits;
      for (const Finding& f : outcome.findings)
        if (f.rule == rule->id)
          for (const Fix& fix : f.fixes) {
            CHECK((!fix.safe || rule->fix_safe));  // never safer than the rule says
            edits.insert(edits.end(), fix.edits.begin(), fix.edits.end());
          }
      REQUIRE_FALSE(edits.empty());
      std::string result, error;
      REQUIRE(ApplyEdits(ReadWholeFile(bad), edits, &result, &error));
      CHECK(result == ReadWholeFile(fixed));
      // The fixed script no longer has the finding.
      TempDir dir;
      LintOutcome after = LintPath(dir.Write("fixed.sh", result));
      for (const Finding& f : after.findings) CHECK(f.rule != rule->id);
    }
  }
}

TEST_CASE("expect markers: trailing, own line, and relative offsets", "[rules][fixtures]") {
  auto got = ReadExpectations(
      "#SBATCH --gres=gpu:h100:4  # expect: GL206\n"  // trailing, even after a '#' line
      "# expect: GL101, GL107\n"                      // own line: the next line
      "vllm serve x\n"
      "# expect@-3: GL004\n"                          // line 1
      "a \\\n  b\n# expect@+2: GL302\n\nc\n");
  std::multiset<std::pair<int, std::string>> want = {
      {1, "GL206"}, {3, "GL101"}, {3, "GL107"}, {1, "GL004"}, {9, "GL302"}};
  CHECK(got == want);
}

TEST_CASE("loading the rules without their docs loses nothing but the docs", "[rules]") {
  RuleSet lean;
  std::string error;
  REQUIRE(lean.LoadBuiltIn(&error, /*with_docs=*/false));
  REQUIRE(lean.rules().size() == BuiltIn().rules().size());
  for (size_t i = 0; i < lean.rules().size(); ++i) {
    const Rule& a = *lean.rules()[i];
    const Rule& b = *BuiltIn().rules()[i];
    INFO(b.id);
    CHECK(a.id == b.id);
    CHECK(a.when_text == b.when_text);
    CHECK(a.message.size() == b.message.size());
    CHECK(a.at == b.at);
    CHECK(a.roles == b.roles);
    CHECK(a.frameworks == b.frameworks);
    CHECK(a.fix_objective == b.fix_objective);
    CHECK(a.fix_set == b.fix_set);
    CHECK(a.fix_safe == b.fix_safe);
    CHECK(a.severity == b.severity);
    CHECK(a.doc.what.empty());
  }
}

TEST_CASE("a rule for a framework covers every release's map of it", "[rules]") {
  // A framework with several releases has a map each (verl, verl-0.6, verl-0.5): a rule that
  // names one and not the others would fall silent on every pinned script.
  FrameworkMaps maps;
  int checked = 0;
  for (const auto& rule : BuiltIn().rules()) {
    for (const std::string& named : rule->frameworks) {
      const FrameworkMap* map = maps.Find(named);
      if (!map || map->package.empty()) continue;
      for (const FrameworkMap& other : maps.maps()) {
        if (other.package != map->package || other.matches.empty() ||
            other.kind != map->kind)
          continue;
        INFO(rule->id << " names " << named << " but not " << other.name);
        CHECK(std::find(rule->frameworks.begin(), rule->frameworks.end(), other.name) !=
              rule->frameworks.end());
        ++checked;
      }
    }
  }
  CHECK(checked >= 3);  // GL306's three verl maps
}
