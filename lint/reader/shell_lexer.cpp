#include "lint/reader/shell_lexer.h"

#include <cctype>

namespace gpulint {
namespace {

// Deeper ${...:-${...}} nesting than this is kept opaque: real scripts nest two or three deep.
constexpr int kMaxExpansionDepth = 32;

bool IsNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
bool IsWordBreak(char c) {
  return IsBlank(c) || c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')' ||
         c == '<' || c == '>';
}

// A character with no meaning of its own inside an unquoted word (not a break, quote, escape,
// expansion or the '}' that may close ${X:-word}).
bool IsPlainInWord(char c) {
  return !IsWordBreak(c) && c != '\\' && c != '\'' && c != '"' && c != '$' && c != '`' &&
         c != '}';
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  Lexed Run() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (IsBlank(c)) {
        ++pos_;
      } else if (c == '\\' && Peek(1) == '\n') {
        pos_ += 2;
      } else if (c == '\n') {
        // Blank lines mean nothing to the grammar: one token for a run of them, so that 5 MB
        // of newlines is one token, not five million.
        if (out_.tokens.empty() || out_.tokens.back().kind != Token::Kind::kNewline)
          Emit(Token::Kind::kNewline, "\n", pos_);
        ++pos_;
        ReadPendingHeredocs();
      } else if (c == '#') {
        ReadComment();
      } else if (c == '(' && Peek(1) == '(') {
        ReadArithmeticCommand();
      } else if (IsOperatorStart(c)) {
        ReadOperator();
      } else {
        ReadWordToken();
      }
    }
    ReadPendingHeredocs();
    for (size_t index : pending_heredocs_) {
      out_.diagnostics.push_back(
          {"heredoc '" + out_.heredocs[index].delimiter + "' is never terminated", text_.size()});
    }
    Token end;
    end.kind = Token::Kind::kEnd;
    end.offset = text_.size();
    out_.tokens.push_back(end);
    return std::move(out_);
  }

  // Reads parts the way double quotes do (heredoc bodies): $ and ` expand, quotes are literal.
  std::vector<WordPart> ReadAsDoubleQuoted() {
    std::vector<WordPart> parts;
    ReadDoubleQuotedParts(&parts, /*terminator=*/'\0', /*depth=*/0);
    return parts;
  }

 private:
  char Peek(size_t ahead) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }

  static bool IsOperatorStart(char c) {
    return c == ';' || c == '&' || c == '|' || c == '(' || c == ')' || c == '<' || c == '>';
  }

  void Emit(Token::Kind kind, std::string op, size_t offset) {
    Token token;
    token.kind = kind;
    token.op = std::move(op);
    token.offset = offset;
    out_.tokens.push_back(std::move(token));
  }

  void ReadComment() {
    size_t start = pos_;
    size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    out_.comments.push_back({std::string(text_.substr(start + 1, end - start - 1)), start});
    pos_ = end;
  }

  // ((...)) as a command, or after `for`: kept as one opaque operator token.
  void ReadArithmeticCommand() {
    size_t start = pos_;
    pos_ += 2;
    int depth = 2;
    while (pos_ < text_.size() && depth > 0) {
      if (text_[pos_] == '(') ++depth;
      if (text_[pos_] == ')') --depth;
      ++pos_;
    }
    Token token;
    token.kind = Token::Kind::kOperator;
    token.op = "((";
    token.offset = start;
    token.word.parts.push_back(
        {WordPart::Kind::kArithmetic, start, pos_ - start, false, false,
         std::string(text_.substr(start, pos_ - start)), "", "", {}, "", false});
    out_.tokens.push_back(std::move(token));
  }

  void ReadOperator() {
    static const char* const kOperators[] = {";;&", "&>>", "<<<", "<<-", ";;", ";&", "&&", "||",
                                             "|&",  ">>",  "&>",  ">&",  "<&", "<<", "<>", ">|",
                                             ";",   "&",   "|",   "(",   ")",  "<",  ">"};
    for (const char* op : kOperators) {
      std::string_view candidate(op);
      if (text_.substr(pos_, candidate.size()) != candidate) continue;
      size_t start = pos_;
      pos_ += candidate.size();
      Emit(Token::Kind::kOperator, std::string(candidate), start);
      if (candidate == "<<" || candidate == "<<-") StartHeredoc(candidate == "<<-");
      return;
    }
    ++pos_;  // unreachable: IsOperatorStart covers every first character above
  }

  void StartHeredoc(bool strip_tabs) {
    while (pos_ < text_.size() && IsBlank(text_[pos_])) ++pos_;
    Word delimiter_word = ReadWord(0);
    Heredoc heredoc;
    heredoc.strip_tabs = strip_tabs;
    for (const WordPart& part : delimiter_word.parts) {
      heredoc.delimiter += part.text;
      if (part.quoted || !part.exact) heredoc.expand = false;
    }
    out_.tokens.back().heredoc = static_cast<int>(out_.heredocs.size());
    out_.tokens.back().word = delimiter_word;
    pending_heredocs_.push_back(out_.heredocs.size());
    out_.heredocs.push_back(std::move(heredoc));
  }

  void ReadPendingHeredocs() {
    for (size_t index : pending_heredocs_) {
      Heredoc& heredoc = out_.heredocs[index];
      heredoc.body_offset = pos_;
      while (pos_ < text_.size()) {
        size_t end = text_.find('\n', pos_);
        if (end == std::string_view::npos) end = text_.size();
        std::string_view line = text_.substr(pos_, end - pos_);
        if (heredoc.strip_tabs)
          while (!line.empty() && line.front() == '\t') line.remove_prefix(1);
        pos_ = end < text_.size() ? end + 1 : end;
        if (line == heredoc.delimiter) {
          heredoc.terminated = true;
          break;
        }
        heredoc.body += line;
        heredoc.body += '\n';
      }
      if (!heredoc.terminated) {
        out_.diagnostics.push_back(
            {"heredoc '" + heredoc.delimiter + "' is never terminated", heredoc.body_offset});
      }
    }
    // A heredoc that reached the end is reported once, by the loop above.
    pending_heredocs_.clear();
  }

  void ReadWordToken() {
    size_t start = pos_;
    Word word = ReadWord(0);
    // NAME=( ... ): an array assignment.
    std::string literal;
    if (pos_ < text_.size() && text_[pos_] == '(' && word.IsLiteral(&literal) &&
        IsArrayAssignmentPrefix(literal)) {
      ReadArrayAssignment(std::move(word), start);
      return;
    }
    // "2>" and "2>&1": a file descriptor number glued to a redirection.
    if (pos_ < text_.size() && (text_[pos_] == '<' || text_[pos_] == '>') &&
        word.IsLiteral(&literal) && !literal.empty() &&
        literal.find_first_not_of("0123456789") == std::string::npos) {
      ReadOperator();
      out_.tokens.back().offset = start;
      out_.tokens.back().op = literal + out_.tokens.back().op;
      return;
    }
    if (word.parts.empty()) {  // an unreadable character: skip it
      ++pos_;
      return;
    }
    Token token;
    token.kind = Token::Kind::kWord;
    token.word = std::move(word);
    token.offset = start;
    out_.tokens.push_back(std::move(token));
  }

  static bool IsArrayAssignmentPrefix(const std::string& literal) {
    if (literal.size() < 2 || literal.back() != '=' || !IsNameStart(literal[0])) return false;
    size_t name_end = literal.size() - 1;
    if (literal[name_end - 1] == '+') --name_end;
    for (size_t i = 0; i < name_end; ++i)
      if (!IsNameChar(literal[i])) return false;
    return true;
  }

  void ReadArrayAssignment(Word prefix, size_t start) {
    Token token;
    token.kind = Token::Kind::kAssignmentArray;
    token.word = std::move(prefix);
    token.offset = start;
    ++pos_;  // '('
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (IsBlank(c) || c == '\n') {
        ++pos_;
      } else if (c == '\\' && Peek(1) == '\n') {
        pos_ += 2;
      } else if (c == '#') {
        ReadComment();
      } else if (c == ')') {
        ++pos_;
        out_.tokens.push_back(std::move(token));
        return;
      } else {
        size_t before = pos_;
        Word element = ReadWord(0);
        if (pos_ == before) ++pos_;  // a stray operator character inside ( )
        if (!element.parts.empty()) token.elements.push_back(std::move(element));
      }
    }
    out_.diagnostics.push_back({"array assignment is never closed with ')'", start});
    out_.tokens.push_back(std::move(token));
  }

  // A word: everything up to an unquoted blank or operator character.
  Word ReadWord(int depth) {
    Word word;
    word.offset = pos_;
    ReadUnquotedParts(&word.parts, depth, /*terminator=*/'\0');
    word.length = pos_ - word.offset;
    return word;
  }

  // Literal runs are flushed into a part whenever something else interrupts them.
  struct LiteralRun {
    std::string text;
    size_t offset = 0;
    bool open = false;
  };

  void Flush(LiteralRun& run, std::vector<WordPart>* parts, bool quoted) {
    if (!run.open) return;
    WordPart part;
    part.kind = WordPart::Kind::kLiteral;
    part.offset = run.offset;
    part.length = run.text.size();
    part.quoted = quoted;
    part.text = std::move(run.text);
    parts->push_back(std::move(part));
    run = LiteralRun();
  }

  void AddChar(LiteralRun& run, char c) {
    if (!run.open) {
      run.open = true;
      run.offset = pos_;
    }
    run.text += c;
  }

  void AddEscaped(std::vector<WordPart>* parts, char c, size_t offset, size_t length, bool quoted) {
    WordPart part;
    part.kind = WordPart::Kind::kLiteral;
    part.offset = offset;
    part.length = length;
    part.quoted = quoted;
    part.exact = false;
    part.text = std::string(1, c);
    parts->push_back(std::move(part));
  }

  // Unquoted context. `terminator` '}' reads a ${X:-...} argument, where blanks are literal.
  void ReadUnquotedParts(std::vector<WordPart>* parts, int depth, char terminator) {
    LiteralRun run;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (terminator == '}' && c == '}') break;
      if (terminator == '\0' && IsWordBreak(c)) {
        // <( and >( are process substitutions, part of the word.
        if ((c == '<' || c == '>') && Peek(1) == '(') {
          Flush(run, parts, false);
          ReadSubstitution(parts, false, pos_ + 1);
          continue;
        }
        break;
      }
      if (c == '\\') {
        if (Peek(1) == '\n') {  // line continuation inside a word
          Flush(run, parts, false);
          pos_ += 2;
          continue;
        }
        if (pos_ + 1 < text_.size()) {
          Flush(run, parts, false);
          AddEscaped(parts, text_[pos_ + 1], pos_, 2, true);
          pos_ += 2;
          continue;
        }
      }
      if (c == '\'') {
        Flush(run, parts, false);
        ReadSingleQuoted(parts);
        continue;
      }
      if (c == '"') {
        Flush(run, parts, false);
        size_t open = pos_++;
        size_t before = parts->size();
        ReadDoubleQuotedParts(parts, '"', depth);
        // "" is an empty argument, as '' is: without a part the word vanished, and a flag took
        // the next word as its value (found by tests/fuzz/fuzz_edits).
        if (parts->size() == before) {
          WordPart empty;
          empty.offset = open + 1;
          empty.quoted = true;
          parts->push_back(std::move(empty));
        }
        if (pos_ < text_.size()) {
          ++pos_;
        } else {
          out_.diagnostics.push_back({"double quote is never closed", open});
        }
        continue;
      }
      if (c == '$' || c == '`') {
        Flush(run, parts, false);
        if (ReadDollar(parts, false, depth)) continue;
        AddChar(run, c);
        ++pos_;
        continue;
      }
      // Most of a word is plain characters: take them as one run, not one at a time.
      size_t end = pos_ + 1;
      while (end < text_.size() && IsPlainInWord(text_[end])) ++end;
      AddChar(run, c);  // opens the run here
      run.text.append(text_.data() + pos_ + 1, end - pos_ - 1);
      pos_ = end;
    }
    Flush(run, parts, false);
  }

  void ReadSingleQuoted(std::vector<WordPart>* parts) {
    size_t open = pos_;
    ++pos_;
    size_t close = text_.find('\'', pos_);
    if (close == std::string_view::npos) {
      out_.diagnostics.push_back({"single quote is never closed", open});
      close = text_.size();
    }
    WordPart part;
    part.kind = WordPart::Kind::kLiteral;
    part.offset = pos_;
    part.length = close - pos_;
    part.quoted = true;
    part.text = std::string(text_.substr(pos_, close - pos_));
    parts->push_back(std::move(part));
    pos_ = close < text_.size() ? close + 1 : close;
  }

  // Inside "...", or a heredoc body when terminator is '\0'.
  void ReadDoubleQuotedParts(std::vector<WordPart>* parts, char terminator, int depth) {
    LiteralRun run;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (terminator != '\0' && c == terminator) break;
      if (c == '\\' && pos_ + 1 < text_.size()) {
        char next = text_[pos_ + 1];
        if (next == '\n') {
          Flush(run, parts, true);
          pos_ += 2;
          continue;
        }
        if (next == '"' || next == '\\' || next == '$' || next == '`') {
          Flush(run, parts, true);
          AddEscaped(parts, next, pos_, 2, true);
          pos_ += 2;
          continue;
        }
      }
      if (c == '$' || c == '`') {
        Flush(run, parts, true);
        if (ReadDollar(parts, true, depth)) continue;
        AddChar(run, c);
        ++pos_;
        continue;
      }
      AddChar(run, c);
      ++pos_;
    }
    Flush(run, parts, true);
  }

  // $..., `...`. Returns false when the '$' is just a character.
  bool ReadDollar(std::vector<WordPart>* parts, bool quoted, int depth) {
    size_t start = pos_;
    if (text_[pos_] == '`') {
      size_t end = pos_ + 1;
      while (end < text_.size() && text_[end] != '`') end += text_[end] == '\\' ? 2 : 1;
      if (end >= text_.size()) out_.diagnostics.push_back({"backquote is never closed", start});
      pos_ = std::min(end + 1, text_.size());
      parts->push_back({WordPart::Kind::kCommandSubst, start, pos_ - start, quoted, false,
                        std::string(text_.substr(start, pos_ - start)), "", "", {}, "", false});
      return true;
    }
    char next = Peek(1);
    if (next == '(' && Peek(2) == '(') {
      size_t end = MatchParens(pos_ + 1);
      pos_ = end;
      std::string inner(text_.substr(start + 3, end >= start + 5 ? end - start - 5 : 0));
      parts->push_back({WordPart::Kind::kArithmetic, start, pos_ - start, quoted, false, inner, "",
                        "", {}, "", false});
      return true;
    }
    if (next == '(') {
      ReadSubstitution(parts, quoted, pos_ + 1);
      return true;
    }
    if (next == '\'' && !quoted) {  // $'...' ANSI-C quoting
      ++pos_;
      ReadAnsiC(parts);
      return true;
    }
    if (next == '{') {
      ReadBraced(parts, quoted, depth);
      return true;
    }
    WordPart part;
    part.kind = WordPart::Kind::kParameter;
    part.quoted = quoted;
    part.offset = start;
    if (IsNameStart(next)) {
      size_t end = pos_ + 1;
      while (end < text_.size() && IsNameChar(text_[end])) ++end;
      part.name = std::string(text_.substr(pos_ + 1, end - pos_ - 1));
      pos_ = end;
    } else if (std::isdigit(static_cast<unsigned char>(next)) || next == '@' || next == '*' ||
               next == '#' || next == '?' || next == '$' || next == '!' || next == '-') {
      part.name = std::string(1, next);
      pos_ += 2;
    } else {
      return false;
    }
    part.length = pos_ - start;
    parts->push_back(std::move(part));
    return true;
  }

  // $( ... ) or <( ... ): `open` is the position of '('.
  void ReadSubstitution(std::vector<WordPart>* parts, bool quoted, size_t open) {
    size_t start = pos_;
    size_t end = MatchParens(open);
    pos_ = end;
    parts->push_back({WordPart::Kind::kCommandSubst, start, end - start, quoted, false,
                      std::string(text_.substr(start, end - start)), "", "", {}, "", false});
  }

  // Returns the position after the ')' matching the '(' at `open`, skipping quoted text.
  size_t MatchParens(size_t open) {
    int depth = 0;
    size_t i = open;
    while (i < text_.size()) {
      char c = text_[i];
      if (c == '\\') {
        i += 2;
        continue;
      }
      if (c == '\'') {
        size_t close = text_.find('\'', i + 1);
        i = close == std::string_view::npos ? text_.size() : close + 1;
        continue;
      }
      if (c == '"') {
        ++i;
        while (i < text_.size() && text_[i] != '"') i += text_[i] == '\\' ? 2 : 1;
        ++i;
        continue;
      }
      if (c == '(') ++depth;
      if (c == ')' && --depth == 0) return i + 1;
      ++i;
    }
    out_.diagnostics.push_back({"'(' is never closed", open});
    return text_.size();
  }

  void ReadAnsiC(std::vector<WordPart>* parts) {
    size_t start = pos_ - 1;
    ++pos_;  // the quote
    std::string value;
    while (pos_ < text_.size() && text_[pos_] != '\'') {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) {
        char e = text_[pos_ + 1];
        value += e == 'n' ? '\n' : e == 't' ? '\t' : e;
        pos_ += 2;
        continue;
      }
      value += text_[pos_++];
    }
    if (pos_ < text_.size()) ++pos_;
    parts->push_back({WordPart::Kind::kLiteral, start, pos_ - start, true, false, value, "", "",
                      {}, "", false});
  }

  void ReadBraced(std::vector<WordPart>* parts, bool quoted, int depth) {
    size_t start = pos_;
    pos_ += 2;  // "${"
    WordPart part;
    part.kind = WordPart::Kind::kParameter;
    part.quoted = quoted;
    part.offset = start;
    if (depth >= kMaxExpansionDepth) {
      SkipToBrace(start);
      part.name = "?";
      part.op = "other";
      part.length = pos_ - start;
      parts->push_back(std::move(part));
      return;
    }
    if (pos_ < text_.size() && text_[pos_] == '#' && pos_ + 1 < text_.size() &&
        text_[pos_ + 1] != '}') {
      part.length_of = true;
      ++pos_;
    }
    size_t name_start = pos_;
    if (pos_ < text_.size() && IsNameStart(text_[pos_])) {
      while (pos_ < text_.size() && IsNameChar(text_[pos_])) ++pos_;
    } else if (pos_ < text_.size()) {
      ++pos_;  // a special parameter: $1, $@, $#, ...
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    part.name = std::string(text_.substr(name_start, pos_ - name_start));
    if (pos_ < text_.size() && text_[pos_] == '[') {
      size_t close = text_.find(']', pos_);
      if (close != std::string_view::npos) {
        part.index = std::string(text_.substr(pos_ + 1, close - pos_ - 1));
        pos_ = close + 1;
      }
    }
    static const char* const kOps[] = {":-", ":=", ":+", ":?", "##", "%%", "-",
                                       "=",  "+",  "?",  "#",  "%"};
    if (pos_ < text_.size() && text_[pos_] != '}') {
      for (const char* op : kOps) {
        std::string_view candidate(op);
        if (text_.substr(pos_, candidate.size()) == candidate) {
          part.op = op;
          pos_ += candidate.size();
          break;
        }
      }
      if (part.op.empty()) {
        part.op = "other";  // ${X/a/b}, ${X:0:3}, ${X^^}: not evaluated
        SkipToBrace(start);
        part.length = pos_ - start;
        parts->push_back(std::move(part));
        return;
      }
      ReadUnquotedParts(&part.argument, depth + 1, '}');
    }
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
    } else {
      out_.diagnostics.push_back({"'${' is never closed with '}'", start});
    }
    part.length = pos_ - start;
    parts->push_back(std::move(part));
  }

  void SkipToBrace(size_t start) {
    int depth = 1;
    while (pos_ < text_.size() && depth > 0) {
      if (text_[pos_] == '{') ++depth;
      if (text_[pos_] == '}') --depth;
      ++pos_;
    }
    if (depth > 0) out_.diagnostics.push_back({"'${' is never closed with '}'", start});
  }

  std::string_view text_;
  size_t pos_ = 0;
  Lexed out_;
  std::vector<size_t> pending_heredocs_;
};

}  // namespace

Lexed LexShell(std::string_view text) { return Lexer(text).Run(); }

std::vector<WordPart> LexHeredocBody(std::string_view body) {
  return Lexer(body).ReadAsDoubleQuoted();
}

}  // namespace gpulint
