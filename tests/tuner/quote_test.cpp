// Values a fix writes are quoted for the file they land in.
#include "tuner/quote.h"

#include <catch2/catch.hpp>

using gpulint::KindOfFile;
using gpulint::QuoteValue;
using gpulint::TextKind;

TEST_CASE("plain words and numbers are written as they are", "[tuner][quote]") {
  CHECK(QuoteValue(TextKind::kShell, "", 0, 0, "8") == "8");
  CHECK(QuoteValue(TextKind::kShell, "", 0, 0, "fp8") == "fp8");
  CHECK(QuoteValue(TextKind::kYaml, "", 0, 0, "0.85") == "0.85");
  CHECK(QuoteValue(TextKind::kShell, "", 0, 0, "q_proj,v_proj") == "q_proj,v_proj");
}

TEST_CASE("anything else is quoted for the shell", "[tuner][quote]") {
  // Unquoted in the script: single quotes, so that nothing in it is expanded.
  CHECK(QuoteValue(TextKind::kShell, "", 0, 0, "fp8 $(touch /tmp/P)") == "'fp8 $(touch /tmp/P)'");
  CHECK(QuoteValue(TextKind::kShell, "", 0, 0, "it's") == "'it'\\''s'");
  // Inside double quotes already: escaped for them.
  std::string text = "X=\"old\"";
  CHECK(QuoteValue(TextKind::kShell, text, 3, 3, "a $B `c` \"d\"") == "a \\$B \\`c\\` \\\"d\\\"");
  // Inside single quotes: a quote closes, is escaped, and reopens.
  std::string single = "X='old'";
  CHECK(QuoteValue(TextKind::kShell, single, 3, 3, "a'b") == "a'\\''b");
}

TEST_CASE("YAML, JSON and Python get their own quoting", "[tuner][quote]") {
  CHECK(QuoteValue(TextKind::kYaml, "", 0, 0, "a: b") == "\"a: b\"");
  CHECK(QuoteValue(TextKind::kYaml, "k: 'old'", 4, 3, "it's") == "it''s");
  CHECK(QuoteValue(TextKind::kJson, "", 0, 0, "a\"b") == "\"a\\\"b\"");
  CHECK(QuoteValue(TextKind::kPython, "x='old'", 3, 3, "a'b") == "a\\'b");
  CHECK(KindOfFile("a/b.yml") == TextKind::kYaml);
  CHECK(KindOfFile("ds.json") == TextKind::kJson);
  CHECK(KindOfFile("train.sh") == TextKind::kShell);
}

TEST_CASE("YAML quotes a plain word it would not read back (found by the fuzzer)",
          "[tuner][quote]") {
  // tests/fuzz/regressions/edits/yaml-lone-dash-is-a-list: `key: -` is a list holding null.
  CHECK(QuoteValue(TextKind::kYaml, "", 0, 0, "-") == "\"-\"");
  CHECK(QuoteValue(TextKind::kYaml, "", 0, 0, "@x") == "\"@x\"");
  CHECK(QuoteValue(TextKind::kYaml, "", 0, 0, ",x") == "\",x\"");
  CHECK(QuoteValue(TextKind::kYaml, "", 0, 0, "null") == "\"null\"");
  CHECK(QuoteValue(TextKind::kYaml, "", 0, 0, "-1") == "-1");
  CHECK(QuoteValue(TextKind::kShell, "", 0, 0, "-") == "-");
}
