#include "lint/rules/expression.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <mutex>
#include <unordered_map>

namespace gpulint {
namespace {

// Nesting of parentheses and unary operators in a rule is small; a hostile rule file must not
// exhaust the stack.
constexpr int kMaxDepth = 64;

struct Token {
  enum class Kind { kNumber, kString, kName, kOp, kEnd } kind = Kind::kEnd;
  std::string text;
  double number = 0;
  size_t column = 0;
};

bool Tokenize(const std::string& text, std::vector<Token>* tokens, std::string* error,
              size_t* column) {
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    Token token;
    token.column = i;
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])))) {
      size_t used = 0;
      try {
        token.number = std::stod(text.substr(i), &used);
      } catch (const std::exception&) {
        *error = "invalid number";
        *column = i;
        return false;
      }
      token.kind = Token::Kind::kNumber;
      token.text = text.substr(i, used);
      i += used;
    } else if (c == '"' || c == '\'') {
      size_t close = text.find(c, i + 1);
      if (close == std::string::npos) {
        *error = "string is never closed";
        *column = i;
        return false;
      }
      token.kind = Token::Kind::kString;
      token.text = text.substr(i + 1, close - i - 1);
      i = close + 1;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t end = i;
      while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) ||
                                   text[end] == '_' || text[end] == '.'))
        ++end;
      token.kind = Token::Kind::kName;
      token.text = text.substr(i, end - i);
      i = end;
    } else {
      static const char* const kOps[] = {"==", "!=", "<=", ">=", "<", ">", "+", "-", "*",
                                         "/",  "%",  "(",  ")",  "[", "]", ","};
      bool found = false;
      for (const char* op : kOps) {
        size_t n = std::string(op).size();
        if (text.compare(i, n, op) == 0) {
          token.kind = Token::Kind::kOp;
          token.text = op;
          i += n;
          found = true;
          break;
        }
      }
      if (!found) {
        *error = fmt::format("unexpected character '{}'", c);
        *column = i;
        return false;
      }
    }
    tokens->push_back(token);
  }
  Token end;
  end.column = text.size();
  tokens->push_back(end);
  return true;
}

// Precedence climbing: or < and < not < comparison/in/matches < + - < * / % < unary minus.
class Parser {
 public:
  Parser(std::vector<Token> tokens, std::string* error, size_t* column)
      : tokens_(std::move(tokens)), error_(error), column_(column) {}

  std::unique_ptr<Expr> Run() {
    auto expr = Or(0);
    if (expr && Peek().kind != Token::Kind::kEnd) Fail("unexpected '" + Peek().text + "'");
    return error_->empty() ? std::move(expr) : nullptr;
  }

 private:
  const Token& Peek() const { return tokens_[pos_]; }
  bool IsName(const char* name) const {
    return Peek().kind == Token::Kind::kName && Peek().text == name;
  }
  bool IsOp(const char* op) const { return Peek().kind == Token::Kind::kOp && Peek().text == op; }
  std::unique_ptr<Expr> Fail(const std::string& message) {
    if (error_->empty()) {
      *error_ = message;
      *column_ = Peek().column;
    }
    return nullptr;
  }
  std::unique_ptr<Expr> Binary(std::string op, size_t column, std::unique_ptr<Expr> left,
                               std::unique_ptr<Expr> right) {
    if (!left || !right) return nullptr;
    auto node = std::make_unique<Expr>();
    node->kind = Expr::Kind::kBinary;
    node->text = std::move(op);
    node->column = column;
    node->children.push_back(std::move(left));
    node->children.push_back(std::move(right));
    return node;
  }

  std::unique_ptr<Expr> Or(int depth) {
    auto left = And(depth);
    while (left && IsName("or")) {
      size_t column = Peek().column;
      ++pos_;
      left = Binary("or", column, std::move(left), And(depth));
    }
    return left;
  }
  std::unique_ptr<Expr> And(int depth) {
    auto left = Not(depth);
    while (left && IsName("and")) {
      size_t column = Peek().column;
      ++pos_;
      left = Binary("and", column, std::move(left), Not(depth));
    }
    return left;
  }
  std::unique_ptr<Expr> Not(int depth) {
    if (depth > kMaxDepth) return Fail("expression nests too deeply");
    if (IsName("not")) {
      auto node = std::make_unique<Expr>();
      node->kind = Expr::Kind::kUnary;
      node->text = "not";
      node->column = Peek().column;
      ++pos_;
      auto operand = Not(depth + 1);
      if (!operand) return nullptr;
      node->children.push_back(std::move(operand));
      return node;
    }
    return Comparison(depth);
  }
  std::unique_ptr<Expr> Comparison(int depth) {
    auto left = Sum(depth);
    while (left) {
      std::string op;
      if (Peek().kind == Token::Kind::kOp &&
          (Peek().text == "==" || Peek().text == "!=" || Peek().text == "<" ||
           Peek().text == "<=" || Peek().text == ">" || Peek().text == ">=")) {
        op = Peek().text;
      } else if (IsName("in") || IsName("matches")) {
        op = Peek().text;
      } else if (IsName("not") && pos_ + 1 < tokens_.size() &&
                 tokens_[pos_ + 1].kind == Token::Kind::kName && tokens_[pos_ + 1].text == "in") {
        op = "not in";
        ++pos_;
      } else {
        break;
      }
      size_t column = Peek().column;
      ++pos_;
      left = Binary(op, column, std::move(left), Sum(depth));
    }
    return left;
  }
  std::unique_ptr<Expr> Sum(int depth) {
    auto left = Product(depth);
    while (left && (IsOp("+") || IsOp("-"))) {
      std::string op = Peek().text;
      size_t column = Peek().column;
      ++pos_;
      left = Binary(op, column, std::move(left), Product(depth));
    }
    return left;
  }
  std::unique_ptr<Expr> Product(int depth) {
    auto left = Unary(depth);
    while (left && (IsOp("*") || IsOp("/") || IsOp("%"))) {
      std::string op = Peek().text;
      size_t column = Peek().column;
      ++pos_;
      left = Binary(op, column, std::move(left), Unary(depth));
    }
    return left;
  }
  std::unique_ptr<Expr> Unary(int depth) {
    if (depth > kMaxDepth) return Fail("expression nests too deeply");
    if (IsOp("-")) {
      auto node = std::make_unique<Expr>();
      node->kind = Expr::Kind::kUnary;
      node->text = "-";
      node->column = Peek().column;
      ++pos_;
      auto operand = Unary(depth + 1);
      if (!operand) return nullptr;
      node->children.push_back(std::move(operand));
      return node;
    }
    return Primary(depth);
  }
  std::unique_ptr<Expr> Primary(int depth) {
    const Token& token = Peek();
    auto node = std::make_unique<Expr>();
    node->column = token.column;
    switch (token.kind) {
      case Token::Kind::kNumber:
        node->kind = Expr::Kind::kNumber;
        node->number = token.number;
        ++pos_;
        return node;
      case Token::Kind::kString:
        node->kind = Expr::Kind::kString;
        node->text = token.text;
        ++pos_;
        return node;
      case Token::Kind::kName:
        if (token.text == "true" || token.text == "false") {
          node->kind = Expr::Kind::kBool;
          node->boolean = token.text == "true";
          ++pos_;
          return node;
        }
        node->text = token.text;
        ++pos_;
        if (IsOp("(")) {
          node->kind = Expr::Kind::kCall;
          ++pos_;
          while (!IsOp(")")) {
            auto argument = Or(depth + 1);
            if (!argument) return nullptr;
            node->children.push_back(std::move(argument));
            if (IsOp(",")) {
              ++pos_;
            } else if (!IsOp(")")) {
              return Fail("expected ',' or ')'");
            }
          }
          ++pos_;
          return node;
        }
        node->kind = Expr::Kind::kVariable;
        return node;
      case Token::Kind::kOp:
        if (token.text == "(") {
          ++pos_;
          auto inner = Or(depth + 1);
          if (!inner) return nullptr;
          if (!IsOp(")")) return Fail("expected ')'");
          ++pos_;
          return inner;
        }
        if (token.text == "[") {
          node->kind = Expr::Kind::kList;
          ++pos_;
          while (!IsOp("]")) {
            auto item = Or(depth + 1);
            if (!item) return nullptr;
            node->children.push_back(std::move(item));
            if (IsOp(",")) {
              ++pos_;
            } else if (!IsOp("]")) {
              return Fail("expected ',' or ']'");
            }
          }
          ++pos_;
          return node;
        }
        return Fail("unexpected '" + token.text + "'");
      case Token::Kind::kEnd:
        return Fail("unexpected end of expression");
    }
    return Fail("unexpected token");
  }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  std::string* error_;
  size_t* column_;
};

bool Fail(const Expr& at, std::string message, std::string* error, size_t* column) {
  if (error->empty()) {
    *error = std::move(message);
    *column = at.column;
  }
  return false;
}

}  // namespace

const char* ExprTypeName(ExprType type) {
  switch (type) {
    case ExprType::kNumber: return "number";
    case ExprType::kBool: return "boolean";
    case ExprType::kString: return "string";
    case ExprType::kList: return "list";
    case ExprType::kAny: return "any";
  }
  return "any";
}

ExprValue ExprValue::Missing() {
  ExprValue v;
  v.missing = true;
  return v;
}
ExprValue ExprValue::Number(double n) {
  ExprValue v;
  v.type = ExprType::kNumber;
  v.number = n;
  return v;
}
ExprValue ExprValue::Bool(bool b) {
  ExprValue v;
  v.type = ExprType::kBool;
  v.boolean = b;
  return v;
}
ExprValue ExprValue::String(std::string s) {
  ExprValue v;
  v.type = ExprType::kString;
  v.text = std::move(s);
  return v;
}

namespace {

Expr::Op OpNamed(Expr::Kind kind, const std::string& text) {
  using Op = Expr::Op;
  if (kind == Expr::Kind::kUnary) return text == "not" ? Op::kNot : Op::kNegate;
  static const std::map<std::string, Op, std::less<>> ops = {
      {"and", Op::kAnd},      {"or", Op::kOr},          {"+", Op::kAdd},
      {"-", Op::kSubtract},   {"*", Op::kMultiply},     {"/", Op::kDivide},
      {"%", Op::kModulo},     {"in", Op::kIn},          {"not in", Op::kNotIn},
      {"matches", Op::kMatches}, {"<", Op::kLess},      {"<=", Op::kLessEqual},
      {">", Op::kGreater},    {">=", Op::kGreaterEqual}, {"==", Op::kEqual},
      {"!=", Op::kNotEqual}};
  static const std::map<std::string, Op, std::less<>> functions = {
      {"defined", Op::kDefined}, {"written", Op::kWritten}, {"min", Op::kMin},
      {"max", Op::kMax},         {"ceil", Op::kCeil},       {"floor", Op::kFloor},
      {"abs", Op::kAbs},         {"len", Op::kLen},         {"divides", Op::kDivides}};
  const auto& table = kind == Expr::Kind::kCall ? functions : ops;
  auto found = table.find(text);
  return found == table.end() ? Op::kNone : found->second;
}

// Numbers variable names for the whole process (rule files load on more than one thread).
int VariableSlot(const std::string& name) {
  static std::mutex mutex;
  static std::unordered_map<std::string, int> slots;
  std::lock_guard<std::mutex> lock(mutex);
  return slots.emplace(name, static_cast<int>(slots.size())).first->second;
}

void ResolveOps(Expr& expr) {
  if (expr.kind == Expr::Kind::kUnary || expr.kind == Expr::Kind::kBinary ||
      expr.kind == Expr::Kind::kCall)
    expr.op = OpNamed(expr.kind, expr.text);
  if (expr.kind == Expr::Kind::kVariable) expr.slot = VariableSlot(expr.text);
  if (expr.op == Expr::Op::kWritten && expr.children.size() == 1)
    expr.slot = VariableSlot("written:" + expr.children[0]->text);
  for (auto& child : expr.children) ResolveOps(*child);
}

}  // namespace

std::unique_ptr<Expr> ParseExpression(const std::string& text, std::string* error,
                                      size_t* column) {
  error->clear();
  *column = 0;
  std::vector<Token> tokens;
  if (!Tokenize(text, &tokens, error, column)) return nullptr;
  // Each binary operator nests the tree one level deeper, and type checks, evaluation and the
  // tree's destructor recurse over it: a 50,000-term sum would exhaust the stack. Real rules
  // use a few dozen tokens.
  constexpr size_t kMaxTokens = 1024;
  if (tokens.size() > kMaxTokens) {
    *error = fmt::format("the expression has more than {} tokens", kMaxTokens);
    return nullptr;
  }
  std::unique_ptr<Expr> expr = Parser(std::move(tokens), error, column).Run();
  if (expr) ResolveOps(*expr);
  return expr;
}

ExprType TypeCheck(Expr& expr, const ExprSchema& schema, std::string* error, size_t* column) {
  auto check = [&](Expr& child) { return TypeCheck(child, schema, error, column); };
  switch (expr.kind) {
    case Expr::Kind::kNumber: return ExprType::kNumber;
    case Expr::Kind::kString: return ExprType::kString;
    case Expr::Kind::kBool: return ExprType::kBool;
    case Expr::Kind::kList:
      for (auto& child : expr.children)
        if (check(*child) == ExprType::kAny && !error->empty()) return ExprType::kAny;
      return ExprType::kList;
    case Expr::Kind::kVariable: {
      auto it = schema.find(expr.text);
      if (it != schema.end()) return it->second;
      size_t dot = expr.text.find('.');
      if (dot != std::string::npos) {
        auto wildcard = schema.find(expr.text.substr(0, dot) + ".*");
        if (wildcard != schema.end()) return wildcard->second;
      }
      if (auto any = schema.find("*"); any != schema.end()) return any->second;
      Fail(expr, fmt::format("unknown variable '{}'", expr.text), error, column);
      return ExprType::kAny;
    }
    case Expr::Kind::kUnary: {
      ExprType operand = check(*expr.children[0]);
      if (!error->empty()) return ExprType::kAny;
      if (expr.text == "not") {
        if (operand != ExprType::kBool && operand != ExprType::kAny)
          Fail(expr, fmt::format("'not' needs a boolean, not a {}", ExprTypeName(operand)), error,
               column);
        return ExprType::kBool;
      }
      if (operand != ExprType::kNumber && operand != ExprType::kAny)
        Fail(expr, "'-' needs a number", error, column);
      return ExprType::kNumber;
    }
    case Expr::Kind::kBinary: {
      ExprType left = check(*expr.children[0]);
      if (!error->empty()) return ExprType::kAny;
      ExprType right = check(*expr.children[1]);
      if (!error->empty()) return ExprType::kAny;
      const std::string& op = expr.text;
      auto is = [](ExprType t, ExprType want) { return t == want || t == ExprType::kAny; };
      if (op == "and" || op == "or") {
        if (!is(left, ExprType::kBool) || !is(right, ExprType::kBool))
          Fail(expr, fmt::format("'{}' needs booleans", op), error, column);
        return ExprType::kBool;
      }
      if (op == "+" || op == "-" || op == "*" || op == "/" || op == "%") {
        if (!is(left, ExprType::kNumber) || !is(right, ExprType::kNumber))
          Fail(expr, fmt::format("'{}' needs numbers, not {} and {}", op, ExprTypeName(left),
                                 ExprTypeName(right)),
               error, column);
        return ExprType::kNumber;
      }
      if (op == "in" || op == "not in") {
        if (!is(right, ExprType::kList) && !is(right, ExprType::kString))
          Fail(expr, fmt::format("'{}' needs a list or a string on its right", op), error, column);
        return ExprType::kBool;
      }
      if (op == "matches") {
        if (!is(left, ExprType::kString) || expr.children[1]->kind != Expr::Kind::kString) {
          Fail(expr, "'matches' needs a string on its left and a pattern literal on its right",
               error, column);
          return ExprType::kBool;
        }
        expr.regex = std::make_shared<re2::RE2>(expr.children[1]->text, re2::RE2::Quiet);
        if (!expr.regex->ok())
          Fail(*expr.children[1], "invalid regular expression: " + expr.regex->error(), error,
               column);
        return ExprType::kBool;
      }
      // Comparisons: same types, or numbers for ordering.
      if (op == "<" || op == "<=" || op == ">" || op == ">=") {
        if (!is(left, ExprType::kNumber) || !is(right, ExprType::kNumber))
          Fail(expr, fmt::format("'{}' compares numbers, not {} and {}", op, ExprTypeName(left),
                                 ExprTypeName(right)),
               error, column);
        return ExprType::kBool;
      }
      if (left != right && left != ExprType::kAny && right != ExprType::kAny)
        Fail(expr, fmt::format("'{}' compares a {} with a {}", op, ExprTypeName(left),
                               ExprTypeName(right)),
             error, column);
      return ExprType::kBool;
    }
    case Expr::Kind::kCall: {
      std::vector<ExprType> args;
      for (auto& child : expr.children) {
        args.push_back(check(*child));
        if (!error->empty()) return ExprType::kAny;
      }
      const std::string& name = expr.text;
      auto numbers = [&](size_t count) {
        if (args.size() != count && count != 0) {
          Fail(expr, fmt::format("{}() takes {} argument{}", name, count, count == 1 ? "" : "s"),
               error, column);
          return;
        }
        for (ExprType t : args)
          if (t != ExprType::kNumber && t != ExprType::kAny)
            Fail(expr, fmt::format("{}() takes numbers", name), error, column);
      };
      if (name == "min" || name == "max") {
        if (args.empty()) Fail(expr, name + "() needs arguments", error, column);
        numbers(0);
        return ExprType::kNumber;
      }
      if (name == "ceil" || name == "floor" || name == "abs") {
        numbers(1);
        return ExprType::kNumber;
      }
      if (name == "divides") {  // divides(a, b): b is a multiple of a
        numbers(2);
        return ExprType::kBool;
      }
      if (name == "defined" || name == "written") {  // has a value / is written in a file
        if (args.size() != 1 || expr.children[0]->kind != Expr::Kind::kVariable)
          Fail(expr, name + "() takes one variable", error, column);
        return ExprType::kBool;
      }
      if (name == "len") {
        if (args.size() != 1) Fail(expr, "len() takes one argument", error, column);
        return ExprType::kNumber;
      }
      Fail(expr, fmt::format("unknown function '{}'", name), error, column);
      return ExprType::kAny;
    }
  }
  return ExprType::kAny;
}

namespace {

ExprValue Variable(const ExprLookup& lookup, const Expr& variable) {
  return lookup(variable.text);
}
ExprValue Variable(MemoLookup& lookup, const Expr& variable) {
  return lookup.Get(variable.slot, variable.text);
}
ExprValue Written(const ExprLookup& lookup, const Expr& call) {
  return lookup("written:" + call.children[0]->text);
}
ExprValue Written(MemoLookup& lookup, const Expr& call) {
  if (const ExprValue* known = lookup.Find(call.slot)) return *known;
  return lookup.Get(call.slot, "written:" + call.children[0]->text);
}

template <typename Lookup>
ExprValue EvaluateWith(const Expr& expr, Lookup& lookup) {
  using Op = Expr::Op;
  switch (expr.kind) {
    case Expr::Kind::kNumber: return ExprValue::Number(expr.number);
    case Expr::Kind::kString: return ExprValue::String(expr.text);
    case Expr::Kind::kBool: return ExprValue::Bool(expr.boolean);
    case Expr::Kind::kList: {
      ExprValue list;
      list.type = ExprType::kList;
      for (const auto& child : expr.children) {
        ExprValue item = EvaluateWith(*child, lookup);
        if (item.missing) return ExprValue::Missing();
        list.list.push_back(std::move(item));
      }
      return list;
    }
    case Expr::Kind::kVariable: return Variable(lookup, expr);
    case Expr::Kind::kUnary: {
      ExprValue operand = EvaluateWith(*expr.children[0], lookup);
      if (operand.missing) return operand;
      if (expr.op == Op::kNot) return ExprValue::Bool(!operand.boolean);
      return ExprValue::Number(-operand.number);
    }
    case Expr::Kind::kBinary: {
      ExprValue left = EvaluateWith(*expr.children[0], lookup);
      // and/or: a decided side wins over a missing one (false and ? = false; true or ? = true).
      if (expr.op == Op::kAnd || expr.op == Op::kOr) {
        bool is_and = expr.op == Op::kAnd;
        if (!left.missing && left.boolean != is_and) return ExprValue::Bool(!is_and);
        ExprValue right = EvaluateWith(*expr.children[1], lookup);
        if (!right.missing && right.boolean != is_and) return ExprValue::Bool(!is_and);
        if (left.missing || right.missing) return ExprValue::Missing();
        return ExprValue::Bool(is_and);
      }
      ExprValue right = EvaluateWith(*expr.children[1], lookup);
      if (left.missing || right.missing) return ExprValue::Missing();
      switch (expr.op) {
        case Op::kAdd: return ExprValue::Number(left.number + right.number);
        case Op::kSubtract: return ExprValue::Number(left.number - right.number);
        case Op::kMultiply: return ExprValue::Number(left.number * right.number);
        case Op::kDivide:
          if (right.number == 0) return ExprValue::Missing();
          return ExprValue::Number(left.number / right.number);
        case Op::kModulo:
          if (right.number == 0) return ExprValue::Missing();
          return ExprValue::Number(std::fmod(left.number, right.number));
        case Op::kIn:
        case Op::kNotIn: {
          bool found = false;
          if (right.type == ExprType::kList) {
            for (const ExprValue& item : right.list)
              found = found || (item.type == ExprType::kNumber ? item.number == left.number
                                                              : item.text == left.text);
          } else {
            found = right.text.find(left.text) != std::string::npos;
          }
          return ExprValue::Bool(expr.op == Op::kIn ? found : !found);
        }
        case Op::kMatches: return ExprValue::Bool(re2::RE2::PartialMatch(left.text, *expr.regex));
        case Op::kLess: return ExprValue::Bool(left.number < right.number);
        case Op::kLessEqual: return ExprValue::Bool(left.number <= right.number);
        case Op::kGreater: return ExprValue::Bool(left.number > right.number);
        case Op::kGreaterEqual: return ExprValue::Bool(left.number >= right.number);
        case Op::kEqual:
        case Op::kNotEqual: {
          bool equal = left.type == ExprType::kNumber ? left.number == right.number
                       : left.type == ExprType::kBool ? left.boolean == right.boolean
                                                      : left.text == right.text;
          return ExprValue::Bool(expr.op == Op::kEqual ? equal : !equal);
        }
        default: return ExprValue::Missing();
      }
    }
    case Expr::Kind::kCall: {
      if (expr.op == Op::kDefined)
        return ExprValue::Bool(!EvaluateWith(*expr.children[0], lookup).missing);
      if (expr.op == Op::kWritten) {
        ExprValue written = Written(lookup, expr);
        return ExprValue::Bool(!written.missing && written.boolean);
      }
      std::vector<ExprValue> args;
      for (const auto& child : expr.children) {
        args.push_back(EvaluateWith(*child, lookup));
        if (args.back().missing) return ExprValue::Missing();
      }
      switch (expr.op) {
        case Op::kMin:
        case Op::kMax: {
          double result = args[0].number;
          for (const ExprValue& arg : args)
            result = expr.op == Op::kMin ? std::min(result, arg.number)
                                         : std::max(result, arg.number);
          return ExprValue::Number(result);
        }
        case Op::kCeil: return ExprValue::Number(std::ceil(args[0].number));
        case Op::kFloor: return ExprValue::Number(std::floor(args[0].number));
        case Op::kAbs: return ExprValue::Number(std::fabs(args[0].number));
        case Op::kLen:
          return ExprValue::Number(static_cast<double>(
              args[0].type == ExprType::kList ? args[0].list.size() : args[0].text.size()));
        case Op::kDivides:
          if (args[0].number == 0) return ExprValue::Missing();
          return ExprValue::Bool(std::fmod(args[1].number, args[0].number) == 0);
        default: return ExprValue::Missing();
      }
    }
  }
  return ExprValue::Missing();
}

}  // namespace

ExprValue Evaluate(const Expr& expr, const ExprLookup& lookup) {
  return EvaluateWith(expr, lookup);
}

ExprValue Evaluate(const Expr& expr, MemoLookup& lookup) { return EvaluateWith(expr, lookup); }

ExprValue MemoLookup::Get(int slot, const std::string& name) {
  if (slot < 0) return inner_(name);
  auto index = static_cast<size_t>(slot);
  // Grown in steps, not one slot at a time: a file's rules ask for a hundred names or more.
  if (index >= answers_.size())
    answers_.resize(std::max<size_t>({index + 1, 2 * answers_.size(), 64}));
  if (!answers_[index]) answers_[index] = std::make_unique<ExprValue>(inner_(name));
  return *answers_[index];
}

const ExprValue* MemoLookup::Find(int slot) const {
  auto index = static_cast<size_t>(slot);
  return slot >= 0 && index < answers_.size() ? answers_[index].get() : nullptr;
}

void CollectVariables(const Expr& expr, std::vector<std::string>* names) {
  if (expr.kind == Expr::Kind::kVariable) names->push_back(expr.text);
  for (const auto& child : expr.children) CollectVariables(*child, names);
}

}  // namespace gpulint
