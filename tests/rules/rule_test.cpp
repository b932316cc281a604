// Loading rule files: a broken rule is an error that names the file, line, column and rule id,
// never a rule that silently does nothing.
#include "lint/rules/rule.h"

#include <catch2/catch.hpp>

#include "lint/rules/rule_set.h"
#include "lint/rules/rule_variables.h"

using namespace gpulint;

namespace {

const char* kValid = R"(id = "ACME001"
name = "tp-too-large"
category = "parallelism"
severity = "warning"
when = "workload.tp > 8"
message = "TP {workload.tp} crosses the NVLink domain of {gpu.name}"
at = ["tp"]

[doc]
what = "w"
why = "y"
example = "e"
instead = "i"
fix = "f"
)";

// Loads `text` as team-rules.toml; returns the error ("" when it loaded).
std::string LoadError(const std::string& text) {
  std::vector<std::unique_ptr<Rule>> rules;
  std::string error;
  if (LoadRules(text, "team-rules.toml", RuleSchema(), &rules, &error)) {
    REQUIRE(!rules.empty());
    return "";
  }
  return error;
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("a well-formed rule loads with its parts", "[rules][load]") {
  std::vector<std::unique_ptr<Rule>> rules;
  std::string error;
  REQUIRE(LoadRules(kValid, "team-rules.toml", RuleSchema(), &rules, &error));
  REQUIRE(rules.size() == 1);
  const Rule& rule = *rules[0];
  CHECK(rule.id == "ACME001");
  CHECK(rule.severity == Severity::kWarning);
  CHECK(rule.scope == "workload");
  CHECK(rule.at == std::vector<std::string>{"tp"});
  // The message renders its expressions, and a missing value renders as '?'.
  std::string text = RenderMessage(rule, [](const std::string& name) {
    return name == "workload.tp" ? ExprValue::Number(16) : ExprValue::Missing();
  });
  CHECK(text == "TP 16 crosses the NVLink domain of ?");
}

TEST_CASE("a pack of several rules loads from [[rule]] tables", "[rules][load]") {
  std::string one = std::string(kValid);
  std::string pack = "[[rule]]\n" + Replace(one, "[doc]", "[rule.doc]") + "\n[[rule]]\n" +
                     Replace(Replace(Replace(one, "ACME001", "ACME002"), "tp-too-large", "tp-big"),
                             "[doc]", "[rule.doc]");
  std::vector<std::unique_ptr<Rule>> rules;
  std::string error;
  REQUIRE(LoadRules(pack, "team-rules.toml", RuleSchema(), &rules, &error));
  CHECK(rules.size() == 2);
}

TEST_CASE("an expression error points at the file, line, column and rule", "[rules][load]") {
  // `when` is on line 5; its quote is column 8, the expression starts at column 9, and 'speed'
  // (offset 20 in the expression) is column 29.
  std::string error = LoadError(Replace(kValid, "workload.tp > 8", "workload.tp > 8 and speed > 1"));
  CHECK(error == "'when': unknown variable 'speed': team-rules.toml:5:29 (rule ACME001)");
}

TEST_CASE("rule file errors are reported, not ignored", "[rules][load]") {
  CHECK(LoadError(Replace(kValid, "\"ACME001\"", "\"acme-1\"")).find("'id'") == 0);
  CHECK(LoadError(Replace(kValid, "\"tp-too-large\"", "\"TP Too Large\"")).find("'name'") == 0);
  CHECK(LoadError(Replace(kValid, "\"warning\"", "\"fatal\"")).find("'severity'") == 0);
  CHECK(LoadError(Replace(kValid, "when = \"workload.tp > 8\"\n", "")).find("'when'") == 0);
  CHECK(LoadError(Replace(kValid, "workload.tp > 8", "workload.tp + 8"))
            .find("'when' must be a boolean") == 0);
  CHECK(LoadError(Replace(kValid, "{gpu.name}", "{gpu.name")).find("never closed") !=
        std::string::npos);
  CHECK(LoadError(Replace(kValid, "{gpu.name}", "{gpu.nmae}")).find("unknown variable") !=
        std::string::npos);
  CHECK(LoadError(Replace(kValid, "at = [\"tp\"]", "at = [\"tpp\"]")) ==
        "'at': unknown setting 'tpp': team-rules.toml:7:6 (rule ACME001)");
  CHECK(LoadError(Replace(kValid, "fix = \"f\"\n", "")).find("doc.fix is required") == 0);
  CHECK(LoadError(Replace(kValid, "what = \"w\"", "what = \"w\"\nwhy_not = 1"))
            .find("unknown key 'doc.why_not'") == 0);
  CHECK(LoadError(Replace(kValid, "category", "categroy")).find("'category' is required") == 0);
  CHECK(LoadError("severty = \"info\"\n" + std::string(kValid)).find("unknown key 'severty'") ==
        0);
  CHECK(LoadError("id = \"ACME001\"\nname = [").find("invalid TOML") == 0);
}

TEST_CASE("a project pack cannot reuse a built-in id", "[rules][load]") {
  RuleSet rules;
  std::string error;
  REQUIRE(rules.LoadBuiltIn(&error));
  CHECK_FALSE(rules.AddText(Replace(kValid, "ACME001", "GL101"), "team-rules.toml", &error));
  CHECK(error.find("rule id GL101 is used twice") == 0);
  CHECK(rules.AddText(kValid, "team-rules.toml", &error));
  CHECK(rules.Find("ACME001") != nullptr);
  CHECK(rules.Find("tp-too-large") != nullptr);  // by name too
}

TEST_CASE("lint's unchecked load of the built-in rules gives the same rules as the checked one",
          "[rules][load]") {
  RuleSet checked, unchecked;
  std::string error;
  REQUIRE(checked.LoadBuiltIn(&error, /*with_docs=*/false, /*type_check=*/true));
  REQUIRE(unchecked.LoadBuiltIn(&error, /*with_docs=*/false, /*type_check=*/false));
  REQUIRE(checked.rules().size() == unchecked.rules().size());
  for (size_t i = 0; i < checked.rules().size(); ++i) {
    CHECK(checked.rules()[i]->id == unchecked.rules()[i]->id);
    CHECK(checked.rules()[i]->at == unchecked.rules()[i]->at);
  }
  // Only the types go unchecked: a team pack is always checked, and syntax fails either way.
  CHECK_FALSE(unchecked.AddText(Replace(kValid, "workload.tp > 8", "speed > 8"), "t.toml", &error));
  CHECK(error.find("'when': unknown variable 'speed'") == 0);
  CHECK_FALSE(unchecked.AddText(Replace(kValid, "workload.tp > 8", "workload.tp >"), "t.toml",
                                &error, true, /*type_check=*/false));
}
