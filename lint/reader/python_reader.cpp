#include "lint/reader/python_reader.h"

#include <cctype>
#include <cstring>

#include "lint/reader/python_escape.h"

namespace gpulint {
namespace {

// Nested calls, dicts and lists deeper than this are kept as kOther.
constexpr int kMaxValueDepth = 16;

struct PyToken {
  enum class Kind { kName, kNumber, kString, kOp, kNewline, kEnd } kind = Kind::kEnd;
  std::string text;    // name, number, operator; a string's value
  size_t offset = 0;   // token start
  size_t length = 0;
  size_t value_offset = 0;  // a string's content
  size_t value_length = 0;
  bool exact = true;        // a string without escapes
  bool fstring = false;
  int indent = 0;           // column of the logical line's first token
  bool line_start = false;  // first token of a logical line
};

bool IsIdentStart(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool IsIdentChar(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

// `comments`, when given, receives each comment's offset (of the '#') and text after it.
std::vector<PyToken> Tokenize(std::string_view src,
                              std::vector<std::pair<size_t, std::string>>* comments = nullptr) {
  std::vector<PyToken> tokens;
  size_t i = 0;
  int depth = 0;
  bool at_line_start = true;
  int indent = 0;
  while (i < src.size()) {
    char c = src[i];
    if (at_line_start) {
      indent = 0;
      while (i < src.size() && (src[i] == ' ' || src[i] == '\t')) {
        indent += src[i] == '\t' ? 8 : 1;
        ++i;
      }
      if (i >= src.size()) break;
      c = src[i];
      if (c == '\n' || c == '#' || c == '\r') {
        // blank or comment-only line: not a logical line
      }
    }
    if (c == '#') {
      size_t start = i;
      while (i < src.size() && src[i] != '\n') ++i;
      if (comments) comments->push_back({start, std::string(src.substr(start + 1, i - start - 1))});
      continue;
    }
    if (c == '\\' && i + 1 < src.size() && src[i + 1] == '\n') {
      i += 2;
      continue;
    }
    if (c == '\n') {
      if (depth == 0 && !tokens.empty() && tokens.back().kind != PyToken::Kind::kNewline) {
        PyToken newline;
        newline.kind = PyToken::Kind::kNewline;
        newline.offset = i;
        tokens.push_back(newline);
      }
      ++i;
      if (depth == 0) at_line_start = true;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
      ++i;
      continue;
    }
    PyToken token;
    token.offset = i;
    token.indent = indent;
    token.line_start = at_line_start;
    at_line_start = false;
    // String literal, possibly with a prefix (r, b, u, f and combinations).
    size_t prefix_end = i;
    while (prefix_end < src.size() && prefix_end - i < 2 &&
           std::strchr("rRbBuUfF", src[prefix_end]) && src[prefix_end] != '\0')
      ++prefix_end;
    if (prefix_end < src.size() && (src[prefix_end] == '"' || src[prefix_end] == '\'') &&
        (prefix_end == i || !IsIdentChar(static_cast<unsigned char>(src[prefix_end - 1])) ||
         std::strchr("rRbBuUfF", src[prefix_end - 1]))) {
      std::string prefix(src.substr(i, prefix_end - i));
      bool raw = prefix.find_first_of("rR") != std::string::npos;
      token.fstring = prefix.find_first_of("fF") != std::string::npos;
      char quote = src[prefix_end];
      bool triple = src.substr(prefix_end, 3) == std::string(3, quote);
      size_t start = prefix_end + (triple ? 3 : 1);
      size_t j = start;
      std::string value;
      while (j < src.size()) {
        if (src[j] == '\\' && !raw && j + 1 < src.size()) {
          // Decoded as Python does: "\r", "\u00e9" and "C:\data" were read as "r", "u00e9"
          // and "C:data" (found by tests/fuzz/fuzz_edits).
          j = DecodePythonEscape(src, j, &value);
          token.exact = false;
          continue;
        }
        if (triple ? src.substr(j, 3) == std::string(3, quote) : src[j] == quote) break;
        if (!triple && src[j] == '\n') break;  // unterminated single-line string
        value += src[j++];
      }
      token.kind = PyToken::Kind::kString;
      token.text = value;
      token.value_offset = start;
      token.value_length = j - start;
      i = std::min(src.size(), j + (triple ? 3 : 1));
      token.length = i - token.offset;
      tokens.push_back(token);
      continue;
    }
    if (IsIdentStart(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < src.size() && IsIdentChar(static_cast<unsigned char>(src[j]))) ++j;
      token.kind = PyToken::Kind::kName;
      token.text = std::string(src.substr(i, j - i));
      token.length = j - i;
      i = j;
      tokens.push_back(token);
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i + 1 < src.size() && std::isdigit(static_cast<unsigned char>(src[i + 1])))) {
      size_t j = i;
      while (j < src.size() &&
             (std::isalnum(static_cast<unsigned char>(src[j])) || src[j] == '.' || src[j] == '_' ||
              ((src[j] == '+' || src[j] == '-') && (src[j - 1] == 'e' || src[j - 1] == 'E'))))
        ++j;
      token.kind = PyToken::Kind::kNumber;
      token.text = std::string(src.substr(i, j - i));
      token.length = j - i;
      i = j;
      tokens.push_back(token);
      continue;
    }
    static const char* const kTwoChar[] = {"**", "==", "!=", "<=", ">=", "->", ":=", "//", "+=",
                                           "-=", "*=", "/="};
    token.kind = PyToken::Kind::kOp;
    token.length = 1;
    for (const char* op : kTwoChar)
      if (src.substr(i, 2) == op) token.length = 2;
    token.text = std::string(src.substr(i, token.length));
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    i += token.length;
    tokens.push_back(token);
  }
  PyToken end;
  end.kind = PyToken::Kind::kEnd;
  end.offset = src.size();
  tokens.push_back(end);
  return tokens;
}

class Reader {
 public:
  Reader(std::string_view src, const std::set<std::string>& interesting)
      : tokens_(Tokenize(src)), interesting_(interesting) {}

  PyModule Run() {
    // Enclosing compound statements of the current line: their indent and whether code inside
    // them runs only under a condition (if/elif/else/except) rather than always (def, with, for).
    std::vector<std::pair<int, bool>> blocks;
    for (pos_ = 0; pos_ < tokens_.size() && Tok().kind != PyToken::Kind::kEnd;) {
      const PyToken& token = Tok();
      if (token.line_start) {
        while (!blocks.empty() && blocks.back().first >= token.indent) blocks.pop_back();
        conditional_ = false;
        for (const auto& block : blocks) conditional_ = conditional_ || block.second;
        if (token.kind == PyToken::Kind::kName) {
          const std::string& word = token.text;
          bool conditional_block = word == "if" || word == "elif" || word == "else" ||
                                   word == "except" || word == "while";
          if (conditional_block || word == "for" || word == "try" || word == "with" ||
              word == "def" || word == "class" || word == "finally")
            blocks.emplace_back(token.indent, conditional_block);
        }
        if (token.kind == PyToken::Kind::kName && ReadAssignment(token.indent == 0)) continue;
      }
      if (token.kind == PyToken::Kind::kName && Peek(1).text == "(" && IsCallee(pos_)) {
        ReadCall();
        continue;
      }
      ++pos_;
    }
    return std::move(module_);
  }

 private:
  const PyToken& Tok() const { return tokens_[std::min(pos_, tokens_.size() - 1)]; }
  const PyToken& Peek(size_t ahead) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }

  bool IsCallee(size_t at) const {
    const std::string& name = tokens_[at].text;
    if (name == "add_argument") return true;
    return interesting_.count(name) > 0;
  }

  // NAME = value (module constant or dict), or NAME["key"] = value (dict item).
  bool ReadAssignment(bool module_level) {
    const PyToken& name = Tok();
    if (Peek(1).text == "=" && Peek(1).kind == PyToken::Kind::kOp) {
      size_t start = pos_;
      pos_ += 2;
      PyValue value = ReadValue(0);
      value.conditional = conditional_;
      if (module_level || value.kind == PyValue::Kind::kDict ||
          !module_.constants.count(name.text)) {
        if (value.kind != PyValue::Kind::kOther || module_level)
          module_.constants[name.text] = value;
      }
      (void)start;
      return true;
    }
    if (Peek(1).text == "[" && Peek(2).kind == PyToken::Kind::kString && Peek(3).text == "]" &&
        Peek(4).text == "=") {
      std::string key = Peek(2).text;
      pos_ += 5;
      PyValue value = ReadValue(0);
      value.conditional = conditional_;
      auto it = module_.constants.find(name.text);
      if (it != module_.constants.end() && it->second.kind == PyValue::Kind::kDict)
        it->second.entries.push_back({key, value});
      return true;
    }
    return false;
  }

  void ReadCall() {
    // Callee: walk back over "a.b." to get the full dotted name.
    size_t callee_at = pos_;
    std::string full = Tok().text;
    size_t back = callee_at;
    while (back >= 2 && tokens_[back - 1].text == "." &&
           tokens_[back - 2].kind == PyToken::Kind::kName) {
      back -= 2;
      full = tokens_[back].text + "." + full;
    }
    PyCall call;
    call.callee = Tok().text;
    call.full_callee = full;
    call.offset = tokens_[back].offset;
    pos_ += 2;  // name, '('
    ReadArguments(&call.positional, &call.keywords, 0);
    if (call.callee == "add_argument") {
      RecordArgument(call);
    } else {
      module_.calls.push_back(std::move(call));
    }
  }

  // Reads "a, b, key=value, **name)" up to and including the closing parenthesis.
  void ReadArguments(std::vector<PyValue>* positional,
                     std::vector<PyEntry>* keywords, int depth) {
    while (Tok().kind != PyToken::Kind::kEnd && Tok().text != ")") {
      if (Tok().text == ",") {
        ++pos_;
        continue;
      }
      if (Tok().text == "**" && Peek(1).kind == PyToken::Kind::kName) {
        auto it = module_.constants.find(Peek(1).text);
        if (it != module_.constants.end() && it->second.kind == PyValue::Kind::kDict)
          for (const auto& entry : it->second.entries) keywords->push_back(entry);
        pos_ += 2;
        continue;
      }
      if (Tok().kind == PyToken::Kind::kName && Peek(1).text == "=" &&
          Peek(1).kind == PyToken::Kind::kOp) {
        std::string key = Tok().text;
        pos_ += 2;
        keywords->push_back({key, ReadValue(depth + 1)});
        continue;
      }
      size_t before = pos_;
      positional->push_back(ReadValue(depth + 1));
      // A token no value starts with (`f(}`) is skipped: the loop pushed values without end
      // until memory ran out (found by tests/fuzz/fuzz_python).
      if (pos_ == before) ++pos_;
    }
    if (Tok().text == ")") ++pos_;
  }

  // One expression up to a ',' or closing bracket at this level.
  PyValue ReadValue(int depth) {
    PyValue value;
    const PyToken& first = Tok();
    value.offset = first.offset;
    if (depth > kMaxValueDepth) {
      SkipExpression();
      return value;
    }
    size_t start = pos_;
    if (first.kind == PyToken::Kind::kString) {
      value.kind = first.fstring ? PyValue::Kind::kOther : PyValue::Kind::kString;
      value.text = first.text;
      value.offset = first.value_offset;
      value.length = first.value_length;
      value.exact = first.exact;
      ++pos_;
    } else if (first.kind == PyToken::Kind::kNumber) {
      value.kind = PyValue::Kind::kNumber;
      value.text = first.text;
      value.length = first.length;
      ++pos_;
    } else if (first.text == "-" && Peek(1).kind == PyToken::Kind::kNumber) {
      value.kind = PyValue::Kind::kNumber;
      value.text = "-" + Peek(1).text;
      value.length = Peek(1).offset + Peek(1).length - first.offset;
      pos_ += 2;
    } else if (first.kind == PyToken::Kind::kName &&
               (first.text == "True" || first.text == "False")) {
      value.kind = PyValue::Kind::kBool;
      value.text = first.text == "True" ? "true" : "false";
      value.length = first.length;
      ++pos_;
    } else if (first.kind == PyToken::Kind::kName && first.text == "None") {
      value.kind = PyValue::Kind::kNone;
      value.length = first.length;
      ++pos_;
    } else if (first.kind == PyToken::Kind::kName) {
      std::string dotted = first.text;
      ++pos_;
      while (Tok().text == "." && Peek(1).kind == PyToken::Kind::kName) {
        dotted += "." + Peek(1).text;
        pos_ += 2;
      }
      value.text = dotted;
      value.length = tokens_[pos_ - 1].offset + tokens_[pos_ - 1].length - first.offset;
      if (Tok().text == "(") {
        value.kind = PyValue::Kind::kCall;
        size_t dot = dotted.rfind('.');
        value.text = dot == std::string::npos ? dotted : dotted.substr(dot + 1);
        ++pos_;
        ReadArguments(&value.items, &value.entries, depth);
        // `llm = LLM(...)`: the call is also one of the calls the reader looks for.
        if (interesting_.count(value.text)) {
          PyCall call;
          call.callee = value.text;
          call.full_callee = dotted;
          call.offset = first.offset;
          call.positional = value.items;
          call.keywords = value.entries;
          module_.calls.push_back(std::move(call));
        }
      } else {
        value.kind = dotted.find('.') == std::string::npos ? PyValue::Kind::kName
                                                           : PyValue::Kind::kAttribute;
      }
    } else if (first.text == "{") {
      value.kind = PyValue::Kind::kDict;
      ++pos_;
      while (Tok().kind != PyToken::Kind::kEnd && Tok().text != "}") {
        if (Tok().text == ",") {
          ++pos_;
          continue;
        }
        PyValue key = ReadValue(depth + 1);
        if (Tok().text != ":") {  // a set or a comprehension
          value.kind = PyValue::Kind::kOther;
          SkipToClose("}");
          break;
        }
        ++pos_;
        PyValue item = ReadValue(depth + 1);
        std::string key_text = key.kind == PyValue::Kind::kString || key.kind == PyValue::Kind::kNumber
                                   ? key.text
                                   : "?";
        value.entries.push_back({key_text, item});
      }
      if (Tok().text == "}") ++pos_;
    } else if (first.text == "[") {
      value.kind = PyValue::Kind::kList;
      ++pos_;
      while (Tok().kind != PyToken::Kind::kEnd && Tok().text != "]") {
        if (Tok().text == ",") {
          ++pos_;
          continue;
        }
        size_t before = pos_;
        value.items.push_back(ReadValue(depth + 1));
        if (Tok().text == "for") {  // comprehension
          value.kind = PyValue::Kind::kOther;
          SkipToClose("]");
          break;
        }
        if (pos_ == before) ++pos_;
      }
      if (Tok().text == "]") ++pos_;
    } else {
      SkipExpression();
      value.kind = PyValue::Kind::kOther;
    }
    // Anything after the first term (arithmetic, `if` expressions) makes the value unknown.
    const std::string& next = Tok().text;
    if (Tok().kind != PyToken::Kind::kEnd && Tok().kind != PyToken::Kind::kNewline &&
        next != "," && next != ")" && next != "]" && next != "}" && next != ":") {
      SkipExpression();
      value.kind = PyValue::Kind::kOther;
      value.entries.clear();
      value.items.clear();
    }
    if (pos_ == start) ++pos_;
    return value;
  }

  // Skips to the next ',' or closing bracket at this nesting level.
  void SkipExpression() {
    int depth = 0;
    while (Tok().kind != PyToken::Kind::kEnd) {
      const std::string& t = Tok().text;
      if (Tok().kind == PyToken::Kind::kNewline && depth == 0) return;
      if (Tok().kind == PyToken::Kind::kOp) {
        if (t == "(" || t == "[" || t == "{") ++depth;
        if (t == ")" || t == "]" || t == "}") {
          if (depth == 0) return;
          --depth;
        }
        if (t == "," && depth == 0) return;
      }
      ++pos_;
    }
  }

  void SkipToClose(const char* close) {
    int depth = 1;
    while (Tok().kind != PyToken::Kind::kEnd) {
      const std::string& t = Tok().text;
      if (t == "(" || t == "[" || t == "{") ++depth;
      if (t == ")" || t == "]" || t == "}") {
        if (--depth == 0) {
          if (t == close) ++pos_;
          return;
        }
      }
      ++pos_;
    }
  }

  void RecordArgument(const PyCall& call) {
    PyArgument argument;
    for (const PyValue& value : call.positional)
      if (value.kind == PyValue::Kind::kString && !value.text.empty() && value.text[0] == '-')
        argument.flags.push_back(value.text);
    if (argument.flags.empty()) return;
    for (const auto& [key, value] : call.keywords) {
      if (key == "default") argument.default_value = value;
      if (key == "dest" && value.kind == PyValue::Kind::kString) argument.dest = value.text;
      if (key == "action" && value.kind == PyValue::Kind::kString) {
        argument.store_true = value.text == "store_true";
        argument.store_false = value.text == "store_false";
      }
    }
    if (argument.default_value.kind == PyValue::Kind::kOther &&
        argument.default_value.text.empty() && argument.default_value.length == 0)
      argument.default_value.kind = PyValue::Kind::kNone;
    if (argument.dest.empty()) {
      std::string chosen = argument.flags[0];
      for (const std::string& flag : argument.flags)
        if (flag.rfind("--", 0) == 0) {
          chosen = flag;
          break;
        }
      size_t dashes = chosen.find_first_not_of('-');
      argument.dest = chosen.substr(dashes == std::string::npos ? 0 : dashes);
      for (char& c : argument.dest)
        if (c == '-') c = '_';
    }
    module_.arguments.push_back(std::move(argument));
  }

  std::vector<PyToken> tokens_;
  const std::set<std::string>& interesting_;
  size_t pos_ = 0;
  bool conditional_ = false;
  PyModule module_;
};

}  // namespace

PyModule ReadPython(std::string_view source, const std::set<std::string>& interesting) {
  return Reader(source, interesting).Run();
}

std::vector<std::pair<size_t, std::string>> PythonComments(std::string_view source) {
  std::vector<std::pair<size_t, std::string>> comments;
  Tokenize(source, &comments);
  return comments;
}

}  // namespace gpulint
