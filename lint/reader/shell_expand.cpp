#include "lint/reader/shell_expand.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>

#include "lint/util/strings.h"

namespace gpulint {

bool GlobMatch(const std::string& pattern, const std::string& text) {
  // Iterative matcher with single-star backtracking: linear in practice, no recursion.
  size_t p = 0, t = 0, star = std::string::npos, star_text = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '[') {
      size_t close = pattern.find(']', p + 1);
      if (close != std::string::npos) {
        bool negate = p + 1 < close && (pattern[p + 1] == '!' || pattern[p + 1] == '^');
        bool matched = false;
        for (size_t i = p + 1 + (negate ? 1 : 0); i < close; ++i) {
          if (i + 2 < close && pattern[i + 1] == '-') {
            if (text[t] >= pattern[i] && text[t] <= pattern[i + 2]) matched = true;
            i += 2;
          } else if (pattern[i] == text[t]) {
            matched = true;
          }
        }
        if (matched != negate) {
          p = close + 1;
          ++t;
          continue;
        }
      }
    } else if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t]) &&
               pattern[p] != '*') {
      ++p;
      ++t;
      continue;
    }
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_text = t;
      continue;
    }
    if (star != std::string::npos) {
      p = star + 1;
      t = ++star_text;
      continue;
    }
    return false;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

void RemovePattern(const std::string& value, const std::string& op, const std::string& pattern,
                   size_t* begin, size_t* end) {
  *begin = 0;
  *end = value.size();
  if (op == "#" || op == "##") {
    // Shortest (#) or longest (##) prefix that matches.
    bool longest = op == "##";
    for (size_t n = 0; n <= value.size(); ++n) {
      size_t length = longest ? value.size() - n : n;
      if (GlobMatch(pattern, value.substr(0, length))) {
        *begin = length;
        return;
      }
    }
  } else if (op == "%" || op == "%%") {
    bool longest = op == "%%";
    for (size_t n = 0; n <= value.size(); ++n) {
      size_t length = longest ? value.size() - n : n;
      if (GlobMatch(pattern, value.substr(value.size() - length))) {
        *end = value.size() - length;
        return;
      }
    }
  }
}

namespace {

// Recursive descent over + - * / % ( ), unary minus and numbers; depth is bounded by the
// expression length cap below.
class Arithmetic {
 public:
  Arithmetic(const std::string& text,
             const std::function<std::optional<long long>(const std::string&)>& lookup)
      : text_(text), lookup_(lookup) {}

  std::optional<long long> Run(std::string* unknown_name) {
    if (text_.size() > 1000) return std::nullopt;
    auto value = Sum();
    Skip();
    if (unknown_name) *unknown_name = unknown_;
    if (!value || pos_ != text_.size()) return std::nullopt;
    return value;
  }

 private:
  void Skip() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  std::optional<long long> Sum() {
    auto left = Product();
    while (left) {
      Skip();
      if (pos_ >= text_.size() || (text_[pos_] != '+' && text_[pos_] != '-')) break;
      char op = text_[pos_++];
      auto right = Product();
      if (!right) return std::nullopt;
      long long result = 0;
      if (op == '+' ? __builtin_add_overflow(*left, *right, &result)
                    : __builtin_sub_overflow(*left, *right, &result))
        return std::nullopt;  // bash wraps; a launch value that overflows is not a value
      left = result;
    }
    return left;
  }
  std::optional<long long> Product() {
    auto left = Unary();
    while (left) {
      Skip();
      if (pos_ >= text_.size() || (text_[pos_] != '*' && text_[pos_] != '/' && text_[pos_] != '%'))
        break;
      char op = text_[pos_++];
      auto right = Unary();
      if (!right) return std::nullopt;
      if ((op == '/' || op == '%') && *right == 0) return std::nullopt;
      // INT64_MIN / -1 traps (SIGFPE) and * may overflow: both are unknown, not a crash.
      if (op != '*' && *right == -1 && *left == std::numeric_limits<long long>::min())
        return std::nullopt;
      long long product = 0;
      if (op == '*' && __builtin_mul_overflow(*left, *right, &product)) return std::nullopt;
      left = op == '*' ? product : op == '/' ? *left / *right : *left % *right;
    }
    return left;
  }
  std::optional<long long> Unary() {
    Skip();
    if (pos_ < text_.size() && text_[pos_] == '-') {
      ++pos_;
      auto value = Unary();
      if (!value || *value == std::numeric_limits<long long>::min()) return std::nullopt;
      return -*value;
    }
    if (pos_ < text_.size() && text_[pos_] == '+') ++pos_;
    return Primary();
  }
  std::optional<long long> Primary() {
    Skip();
    if (pos_ >= text_.size()) return std::nullopt;
    char c = text_[pos_];
    if (c == '(') {
      if (++depth_ > 64) return std::nullopt;
      ++pos_;
      auto value = Sum();
      Skip();
      if (pos_ >= text_.size() || text_[pos_] != ')') return std::nullopt;
      ++pos_;
      --depth_;
      return value;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t start = pos_;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      errno = 0;
      long long number = std::strtoll(text_.substr(start, pos_ - start).c_str(), nullptr, 10);
      if (errno == ERANGE) return std::nullopt;
      return number;
    }
    if (c == '$') ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '{') ++pos_;
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    if (pos_ == start) return std::nullopt;
    std::string name = text_.substr(start, pos_ - start);
    if (pos_ < text_.size() && text_[pos_] == '}') ++pos_;
    auto value = lookup_(name);
    if (!value && unknown_.empty()) unknown_ = name;
    return value;
  }

  const std::string& text_;
  const std::function<std::optional<long long>(const std::string&)>& lookup_;
  size_t pos_ = 0;
  int depth_ = 0;
  std::string unknown_;
};

std::optional<long long> AsInteger(const std::optional<std::string>& s) {
  double value = 0;
  if (!s || !ParseNumber(*s, &value)) return std::nullopt;
  // Outside the range a long long holds, the conversion is undefined: such a test is unknown.
  if (!(value >= -9.2e18 && value <= 9.2e18)) return std::nullopt;
  return static_cast<long long>(value);
}

}  // namespace

std::optional<long long> EvaluateArithmetic(
    const std::string& expression,
    const std::function<std::optional<long long>(const std::string&)>& lookup,
    std::string* unknown_name) {
  return Arithmetic(expression, lookup).Run(unknown_name);
}

std::optional<bool> EvaluateTest(const std::vector<std::optional<std::string>>& args,
                                 bool double_bracket) {
  if (args.empty()) return std::nullopt;
  if (args.size() >= 2 && args[0] && *args[0] == "!") {
    auto inner = EvaluateTest(std::vector<std::optional<std::string>>(args.begin() + 1, args.end()),
                              double_bracket);
    return inner ? std::optional<bool>(!*inner) : std::nullopt;
  }
  if (args.size() == 1) return args[0] ? std::optional<bool>(!args[0]->empty()) : std::nullopt;
  if (args.size() == 2 && args[0]) {
    const std::string& op = *args[0];
    if (!args[1]) return std::nullopt;
    if (op == "-z") return args[1]->empty();
    if (op == "-n") return !args[1]->empty();
    return std::nullopt;  // -f, -d, -e ...: the file system at run time
  }
  if (args.size() == 3 && args[1]) {
    const std::string& op = *args[1];
    if (!args[0] || !args[2]) return std::nullopt;
    if (op == "=" || op == "==")
      return double_bracket ? GlobMatch(*args[2], *args[0]) : *args[0] == *args[2];
    if (op == "!=") return double_bracket ? !GlobMatch(*args[2], *args[0]) : *args[0] != *args[2];
    auto left = AsInteger(args[0]), right = AsInteger(args[2]);
    if (!left || !right) return std::nullopt;
    if (op == "-eq") return *left == *right;
    if (op == "-ne") return *left != *right;
    if (op == "-lt") return *left < *right;
    if (op == "-le") return *left <= *right;
    if (op == "-gt") return *left > *right;
    if (op == "-ge") return *left >= *right;
  }
  return std::nullopt;
}

}  // namespace gpulint
