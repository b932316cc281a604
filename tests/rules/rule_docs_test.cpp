// docs/rules/ is generated from the rule files (scripts/gen-rule-docs); this keeps the pages
// that finding links point at in step with the rules.
#include <catch2/catch.hpp>

#include "lint/rules/rule_set.h"
#include "tests/support/process.h"

using namespace gpulint;
using namespace gpulint::testing;

TEST_CASE("docs/rules pages match the rule files (run scripts/gen-rule-docs)", "[rules][docs]") {
  RuleSet rules;
  std::string error;
  REQUIRE(rules.LoadBuiltIn(&error));
  CHECK(ReadWholeFile(SourcePath("docs/rules/README.md")) == RuleIndexMarkdown(rules));
  for (const auto& rule : rules.rules()) {
    INFO(rule->id);
    CHECK(ReadWholeFile(SourcePath("docs/rules/" + rule->id + ".md")) == RuleDocMarkdown(*rule));
    // The URL every finding carries names this page.
    CHECK(RuleUrl(*rule).find("docs/rules/" + rule->id + ".md") != std::string::npos);
  }
}
