// libFuzzer target for rule packs and the rule expression language. The bytes are loaded as a
// rule pack (RuleSet::AddText, checked against the rules' variables) and each rule that loads is
// evaluated and its message and docs rendered; then the bytes are parsed as one expression,
// type-checked (against every name admitted, then against the rules' variables) and evaluated.
// Properties: no crash, hang or sanitizer report; a failure says why; the memoizing lookup
// (MemoLookup) answers exactly as the plain one; and when the lookup answers each variable with
// a value of its declared type, a value that is not missing has the type TypeCheck promised.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "lint/rules/expression.h"
#include "lint/rules/rule.h"
#include "lint/rules/rule_set.h"
#include "lint/rules/rule_variables.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

using gpulint::ExprType;
using gpulint::ExprValue;

// The type the rules' schema gives `name` ("written:x" is a bool), kAny when it has none.
ExprType DeclaredType(const std::string& name) {
  if (name.rfind("written:", 0) == 0) return ExprType::kBool;
  const gpulint::ExprSchema& schema = gpulint::RuleSchema();
  if (auto it = schema.find(name); it != schema.end()) return it->second;
  if (size_t dot = name.find('.'); dot != std::string::npos)
    if (auto it = schema.find(name.substr(0, dot) + ".*"); it != schema.end()) return it->second;
  return ExprType::kAny;
}

// A deterministic answer for every name: missing a quarter of the time, else a value of the
// declared type (any type for undeclared names), with zeros, negatives and huge numbers.
ExprValue Answer(const std::string& name) {
  size_t hash = std::hash<std::string>()(name);
  if (hash % 4 == 0) return ExprValue::Missing();
  ExprType type = DeclaredType(name);
  if (type == ExprType::kAny) type = static_cast<ExprType>((hash >> 2) % 4);
  static const double kNumbers[] = {0, 1, -1, 2, 0.5, 8, 80, 1e300, -1e300, 4096, 3};
  static const char* kStrings[] = {"", "bf16", "vllm", "H100-80GB", "a,b", "\xff\xfe", "x y"};
  switch (type) {
    case ExprType::kNumber:
      return ExprValue::Number(kNumbers[(hash >> 4) % 11]);
    case ExprType::kBool:
      return ExprValue::Bool((hash >> 4) % 2 == 0);
    case ExprType::kString:
      return ExprValue::String(kStrings[(hash >> 4) % 7]);
    default: {
      ExprValue list;
      list.type = ExprType::kList;
      for (size_t i = 0; i < (hash >> 4) % 4; ++i)
        list.list.push_back(ExprValue::String(kStrings[(hash >> (6 + i)) % 7]));
      return list;
    }
  }
}

bool Same(const ExprValue& a, const ExprValue& b) {
  if (a.missing || b.missing) return a.missing == b.missing;
  if (a.type != b.type) return false;
  // NaN from inf - inf is NaN both ways.
  bool numbers = a.number == b.number || (a.number != a.number && b.number != b.number);
  return numbers && a.boolean == b.boolean && a.text == b.text && a.list.size() == b.list.size();
}

void CheckExpression(const std::string& text, const gpulint::ExprSchema& schema, bool typed) {
  std::string error;
  size_t column = 0;
  std::unique_ptr<gpulint::Expr> expr = gpulint::ParseExpression(text, &error, &column);
  if (!expr) {
    FUZZ_CHECK(!error.empty(), "a failed parse says nothing");
    return;
  }
  ExprType type = gpulint::TypeCheck(*expr, schema, &error, &column);
  if (!error.empty()) return;  // evaluating what does not type-check is not allowed
  ExprValue plain = gpulint::Evaluate(*expr, gpulint::ExprLookup(Answer));
  gpulint::MemoLookup memo(Answer);
  ExprValue memoized = gpulint::Evaluate(*expr, memo);
  FUZZ_CHECK(Same(plain, memoized), "MemoLookup answers differently for '%s'", text.c_str());
  if (typed && !plain.missing && type != ExprType::kAny)
    FUZZ_CHECK(plain.type == type, "'%s' checks as %s, evaluates to %s", text.c_str(),
               gpulint::ExprTypeName(type), gpulint::ExprTypeName(plain.type));
  std::vector<std::string> names;
  gpulint::CollectVariables(*expr, &names);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  {
    gpulint::RuleSet rules;
    std::string error;
    if (rules.AddText(text, "team.toml", &error)) {
      for (const auto& rule : rules.rules()) {
        if (rule->when) gpulint::Evaluate(*rule->when, gpulint::ExprLookup(Answer));
        gpulint::RenderMessage(*rule, gpulint::ExprLookup(Answer));
        gpulint::RuleDocText(*rule);
        gpulint::RuleDocMarkdown(*rule);
        gpulint::RuleUrl(*rule);
      }
    } else {
      FUZZ_CHECK(!error.empty(), "a failed rule pack says nothing");
    }
  }
  static const gpulint::ExprSchema anything = {{"*", ExprType::kAny}};
  CheckExpression(text, anything, false);
  CheckExpression(text, gpulint::RuleSchema(), true);
  return 0;
}
