// The rule expression language: parsing, type checking, and three-valued evaluation in which
// a missing value never turns into a finding.
#include "lint/rules/expression.h"

#include <catch2/catch.hpp>

#include <map>

using namespace gpulint;

namespace {

const ExprSchema& Schema() {
  static const ExprSchema schema = {
      {"tp", ExprType::kNumber},      {"micro_batch", ExprType::kNumber},
      {"dtype", ExprType::kString},   {"grad_ckpt", ExprType::kBool},
      {"model.*", ExprType::kNumber}, {"offload", ExprType::kString}};
  return schema;
}

// Evaluates `text` with the given variables (anything else is missing).
ExprValue Eval(const std::string& text, const std::map<std::string, ExprValue>& vars = {}) {
  std::string error;
  size_t column = 0;
  auto expr = ParseExpression(text, &error, &column);
  REQUIRE(expr);
  REQUIRE(error.empty());
  TypeCheck(*expr, Schema(), &error, &column);
  INFO(text << ": " << error);
  REQUIRE(error.empty());
  return Evaluate(*expr, [&vars](const std::string& name) {
    auto it = vars.find(name);
    return it == vars.end() ? ExprValue::Missing() : it->second;
  });
}

bool True(const std::string& text, const std::map<std::string, ExprValue>& vars = {}) {
  ExprValue v = Eval(text, vars);
  return !v.missing && v.type == ExprType::kBool && v.boolean;
}

// The error a rule author sees: the message and the 0-based column it points at.
std::pair<std::string, size_t> ErrorOf(const std::string& text) {
  std::string error;
  size_t column = 0;
  auto expr = ParseExpression(text, &error, &column);
  if (expr) TypeCheck(*expr, Schema(), &error, &column);
  return {error, column};
}

}  // namespace

TEST_CASE("arithmetic follows the usual precedence", "[rules][expression]") {
  CHECK(True("1 + 2 * 3 == 7"));
  CHECK(True("(1 + 2) * 3 == 9"));
  CHECK(True("10 - 4 - 3 == 3"));          // left associative
  CHECK(True("-2 * 3 == -6"));
  CHECK(True("7 % 4 == 3 and 9 / 2 == 4.5"));
  CHECK(True("min(3, 1, 2) == 1 and max(3, 1, 2) == 3"));
  CHECK(True("ceil(1.2) == 2 and floor(1.8) == 1 and abs(-4) == 4"));
}

TEST_CASE("divides(a, b) asks whether b is a multiple of a", "[rules][expression]") {
  CHECK(True("divides(4, 32)"));
  CHECK_FALSE(True("divides(3, 32)"));
  // Zero divides nothing: the result is missing, so no rule fires on it.
  CHECK(Eval("divides(0, 8)").missing);
  CHECK(Eval("8 / 0 > 1").missing);
}

TEST_CASE("strings, lists, in and matches", "[rules][expression]") {
  std::map<std::string, ExprValue> vars = {{"dtype", ExprValue::String("amp-bf16")}};
  CHECK(True("dtype in ['bf16', 'amp-bf16']", vars));
  CHECK(True("dtype not in ['fp16']", vars));
  CHECK(True("dtype matches '^amp-'", vars));
  CHECK_FALSE(True("dtype matches 'fp8'", vars));
  CHECK(True("'bf16' in dtype", vars));  // substring
}

TEST_CASE("a missing variable makes comparisons missing, not false", "[rules][expression]") {
  CHECK(Eval("tp > 1").missing);
  CHECK(Eval("not (tp > 1)").missing);  // negation does not decide it either
  CHECK(Eval("tp + 1 == 2").missing);
  CHECK(Eval("dtype in ['fp16']").missing);
}

TEST_CASE("and/or are decided by a known side (three-valued logic)", "[rules][expression]") {
  std::map<std::string, ExprValue> vars = {{"micro_batch", ExprValue::Number(4)}};
  CHECK_FALSE(True("tp > 1 and micro_batch > 8", vars));
  CHECK_FALSE(Eval("tp > 1 and micro_batch > 8", vars).missing);  // false and ? = false
  CHECK(True("tp > 1 or micro_batch > 2", vars));                 // ? or true = true
  CHECK(Eval("tp > 1 and micro_batch > 2", vars).missing);        // ? and true = ?
  CHECK(Eval("tp > 1 or micro_batch > 8", vars).missing);         // ? or false = ?
}

TEST_CASE("defined() and written() are never missing", "[rules][expression]") {
  std::map<std::string, ExprValue> vars = {{"tp", ExprValue::Number(2)},
                                           {"written:tp", ExprValue::Bool(true)}};
  CHECK(True("defined(tp)", vars));
  CHECK(True("not defined(micro_batch)", vars));
  CHECK(True("written(tp)", vars));
  CHECK(True("not written(micro_batch)", vars));  // no "written:" answer: not written
}

TEST_CASE("type errors name the operator and point at its column", "[rules][expression]") {
  auto [error, column] = ErrorOf("tp and grad_ckpt");
  CHECK(error.find("and") != std::string::npos);
  CHECK(column == 3);
  auto [error2, column2] = ErrorOf("dtype > 2");
  CHECK_FALSE(error2.empty());
  CHECK(column2 == 6);
  auto [error3, column3] = ErrorOf("tp > 1 and speed > 2");
  CHECK(error3.find("unknown variable 'speed'") != std::string::npos);
  CHECK(column3 == 11);
  CHECK(ErrorOf("model.num_attention_heads > 2").first.empty());  // namespace wildcard
  CHECK_FALSE(ErrorOf("divides(tp)").first.empty());              // arity
  CHECK_FALSE(ErrorOf("defined(1)").first.empty());               // defined() takes a variable
  CHECK_FALSE(ErrorOf("dtype matches dtype").first.empty());      // the pattern is a literal
  CHECK_FALSE(ErrorOf("dtype matches '('").first.empty());        // and a valid RE2
}

TEST_CASE("syntax errors say what and where", "[rules][expression]") {
  CHECK_FALSE(ErrorOf("tp > ").first.empty());
  auto [unbalanced, column] = ErrorOf("(tp > 1");
  CHECK_FALSE(unbalanced.empty());
  CHECK(column == 7);
  auto [trailing, column2] = ErrorOf("tp > 1 2");
  CHECK(trailing.find("unexpected '2'") != std::string::npos);
  CHECK(column2 == 7);
  CHECK_FALSE(ErrorOf("'unterminated").first.empty());
  CHECK_FALSE(ErrorOf("tp >> 1").first.empty());
}

TEST_CASE("deeply nested input is refused, not a stack overflow", "[rules][expression]") {
  std::string deep(400, '(');  // 801 tokens: under the token cap, past the depth cap
  deep += "1";
  deep += std::string(400, ')');
  CHECK(ErrorOf(deep).first.find("nests too deeply") != std::string::npos);
  // A flat chain nests the tree once per operator: refused by its length (tests/hostile has
  // the 50,000-term reproducer).
  std::string chain = "tp", short_chain = "tp";
  for (int i = 0; i < 600; ++i) chain += " + tp";
  for (int i = 0; i < 100; ++i) short_chain += " + tp";
  CHECK(ErrorOf(chain + " > 1").first.find("more than 1024 tokens") != std::string::npos);
  CHECK(ErrorOf(short_chain + " > 1").first.empty());
  std::string nots;
  for (int i = 0; i < 5000; ++i) nots += "not ";
  nots += "grad_ckpt";
  CHECK_FALSE(ErrorOf(nots).first.empty());
}

TEST_CASE("CollectVariables lists what an expression reads", "[rules][expression]") {
  std::string error;
  size_t column = 0;
  auto expr = ParseExpression("tp > 1 and divides(tp, model.num_attention_heads)", &error,
                              &column);
  REQUIRE(expr);
  std::vector<std::string> names;
  CollectVariables(*expr, &names);
  CHECK(std::find(names.begin(), names.end(), "tp") != names.end());
  CHECK(std::find(names.begin(), names.end(), "model.num_attention_heads") != names.end());
}

TEST_CASE("a memo lookup asks for each variable once, and answers as the plain lookup does",
          "[rules][expression]") {
  std::map<std::string, int> asked;
  const std::map<std::string, ExprValue> vars = {{"tp", ExprValue::Number(4)},
                                                 {"written:tp", ExprValue::Bool(true)}};
  auto inner = [&](const std::string& name) {
    ++asked[name];
    auto it = vars.find(name);
    return it == vars.end() ? ExprValue::Missing() : it->second;
  };
  MemoLookup memo(inner);
  std::string error;
  size_t column = 0;
  for (const char* text : {"tp > 1 and tp < 8", "written(tp) and tp == 4",
                           "divides(tp, 8) and micro_batch > 1", "tp * micro_batch > 1"}) {
    INFO(text);
    auto expr = ParseExpression(text, &error, &column);
    REQUIRE(expr);
    ExprValue by_memo = Evaluate(*expr, memo);
    ExprValue plain = Evaluate(*expr, ExprLookup(inner));
    CHECK(by_memo.missing == plain.missing);
    CHECK(by_memo.boolean == plain.boolean);
  }
  // The plain lookups above asked once per occurrence; the memo once per name in all.
  MemoLookup counted([&](const std::string& name) {
    ++asked["memo:" + name];
    return inner(name);
  });
  auto expr = ParseExpression("tp > 1 and tp < 8 and written(tp) and written(tp)", &error, &column);
  REQUIRE(expr);
  ExprValue value = Evaluate(*expr, counted);
  CHECK_FALSE(value.missing);
  CHECK(value.boolean);
  CHECK(asked["memo:tp"] == 1);
  CHECK(asked["memo:written:tp"] == 1);
}
