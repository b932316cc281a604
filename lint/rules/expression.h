// The rule expression language: numbers, booleans, strings and lists; arithmetic, comparison,
// and/or/not, `in`, `matches` (RE2) and min/max/ceil/floor/abs/divides/defined; dotted variables
// (micro_batch, model.num_key_value_heads, est.total_gib); written(x) asks whether a setting is
// written in a file rather than a framework default (the lookup answers "written:x"). Parsed and type-checked once when a
// rule file loads; evaluated per workload. A missing variable makes the result missing, and a
// rule whose condition is missing does not apply (never a false alarm).
//
//   auto expr = ParseExpression("tp > 1 and not divides(tp, model.num_attention_heads)", &error);
//   ExprType type = TypeCheck(*expr, schema, &error);       // kBool, or an error with a column
//   ExprValue v = Evaluate(*expr, lookup);                  // v.missing, or v.boolean
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace re2 {
class RE2;
}

namespace gpulint {

enum class ExprType { kNumber, kBool, kString, kList, kAny };
const char* ExprTypeName(ExprType type);

/// A value during evaluation. `missing` propagates through every operator.
struct ExprValue {
  ExprType type = ExprType::kNumber;
  bool missing = false;
  double number = 0;
  bool boolean = false;
  std::string text;
  std::vector<ExprValue> list;

  static ExprValue Missing();
  static ExprValue Number(double n);
  static ExprValue Bool(bool b);
  static ExprValue String(std::string s);
};

struct Expr {
  enum class Kind { kNumber, kString, kBool, kList, kVariable, kUnary, kBinary, kCall };
  /// The operator or function of a kUnary, kBinary or kCall, resolved from `text` once at
  /// parse time: rules are evaluated thousands of times a run.
  enum class Op {
    kNone, kNot, kNegate, kAnd, kOr, kAdd, kSubtract, kMultiply, kDivide, kModulo, kIn,
    kNotIn, kMatches, kLess, kLessEqual, kGreater, kGreaterEqual, kEqual, kNotEqual,
    kDefined, kWritten, kMin, kMax, kCeil, kFloor, kAbs, kLen, kDivides
  };
  Kind kind = Kind::kNumber;
  Op op = Op::kNone;
  size_t column = 0;  ///< 0-based offset in the expression text, for errors
  double number = 0;
  bool boolean = false;
  std::string text;   ///< string literal, variable name, operator, function name
  /// A variable's number among all variable names (written(x): of "written:x"), given at parse
  /// time so that MemoLookup keeps answers in an array; -1 when not numbered.
  int slot = -1;
  std::vector<std::unique_ptr<Expr>> children;
  std::shared_ptr<re2::RE2> regex;  ///< compiled once for `matches` with a literal pattern
};

/// Parses `text`. On error returns null and sets `error` to "what at column N" and `column`.
std::unique_ptr<Expr> ParseExpression(const std::string& text, std::string* error,
                                      size_t* column);

/// Variable name -> type. Names ending in ".*" declare a whole namespace of a type; "*" alone
/// admits every name (no checking).
using ExprSchema = std::map<std::string, ExprType>;

/// Checks variables and operand types. On error sets `error` ("unknown variable 'x'" or
/// "'and' needs booleans") and `column`, and returns kAny.
ExprType TypeCheck(Expr& expr, const ExprSchema& schema, std::string* error, size_t* column);

/// Looks a variable up; return ExprValue::Missing() when it has no value.
using ExprLookup = std::function<ExprValue(const std::string& name)>;

ExprValue Evaluate(const Expr& expr, const ExprLookup& lookup);

/// A lookup that answers each variable once: the rules of one workload or file ask for the same
/// names again and again. Answers are kept by the variable's slot, an index rather than a hash
/// of the name. One thread uses it.
class MemoLookup {
 public:
  explicit MemoLookup(ExprLookup inner) : inner_(std::move(inner)) {}
  /// The answer for `name`, numbered `slot` (-1: not numbered, asked every time).
  ExprValue Get(int slot, const std::string& name);
  /// The kept answer for `slot`, or null.
  const ExprValue* Find(int slot) const;

 private:
  ExprLookup inner_;
  std::vector<std::unique_ptr<ExprValue>> answers_;  ///< by slot; null: not asked yet
};

ExprValue Evaluate(const Expr& expr, MemoLookup& lookup);

/// Every variable an expression reads (for "which setting is this finding about").
void CollectVariables(const Expr& expr, std::vector<std::string>* names);

}  // namespace gpulint
