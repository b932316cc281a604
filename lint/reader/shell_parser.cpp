#include "lint/reader/shell_parser.h"

#include <cctype>
#include <initializer_list>

namespace gpulint {
namespace {

// Compound commands nested deeper than this end the parse: real scripts nest a few levels.
constexpr int kMaxNesting = 100;

bool IsName(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

bool IsRedirect(const std::string& op) {
  if (op.empty()) return false;
  size_t i = 0;
  while (i < op.size() && std::isdigit(static_cast<unsigned char>(op[i]))) ++i;
  std::string rest = op.substr(i);
  return rest == ">" || rest == ">>" || rest == "<" || rest == "<<" || rest == "<<-" ||
         rest == "<<<" || rest == ">&" || rest == "<&" || rest == "&>" || rest == "&>>" ||
         rest == "<>" || rest == ">|";
}

class Parser {
 public:
  explicit Parser(Lexed& lexed) : tokens_(lexed.tokens) {}

  std::unique_ptr<Node> Run(std::vector<LexDiagnostic>* diagnostics) {
    diagnostics_ = diagnostics;
    auto root = ParseSequence({}, {});
    while (!AtEnd()) {  // stray closers such as an unmatched "fi"
      Report("unexpected '" + Describe(Current()) + "'", Current().offset);
      ++pos_;
      auto more = ParseSequence({}, {});
      for (size_t i = 0; i < more->children.size(); ++i) {
        root->children.push_back(std::move(more->children[i]));
        root->background.push_back(more->background[i]);
      }
    }
    return root;
  }

 private:
  const Token& Current() const { return tokens_[pos_]; }
  // The word of the token being consumed, moved out: pos_ only moves forward and nothing reads
  // the tokens after parsing, so no word needs to be copied.
  Word TakeWord() { return std::move(tokens_[pos_].word); }
  bool AtEnd() const { return Current().kind == Token::Kind::kEnd; }
  bool IsOp(const char* op) const {
    return Current().kind == Token::Kind::kOperator && Current().op == op;
  }
  bool IsKeyword(const char* keyword) const {
    std::string text;
    return Current().kind == Token::Kind::kWord && Current().word.IsLiteral(&text) &&
           text == keyword;
  }
  static std::string Describe(const Token& token) {
    std::string text;
    if (token.kind == Token::Kind::kOperator) return token.op;
    if (token.kind == Token::Kind::kNewline) return "newline";
    if (token.word.IsLiteral(&text)) return text;
    return "word";
  }
  void Report(std::string message, size_t offset) {
    diagnostics_->push_back({std::move(message), offset});
  }
  void SkipNewlines() {
    while (Current().kind == Token::Kind::kNewline) ++pos_;
  }
  bool Expect(const char* keyword) {
    if (IsKeyword(keyword)) {
      ++pos_;
      return true;
    }
    Report(std::string("expected '") + keyword + "'", Current().offset);
    return false;
  }

  bool AtTerminator(std::initializer_list<const char*> keywords,
                    std::initializer_list<const char*> ops) const {
    if (AtEnd()) return true;
    for (const char* keyword : keywords)
      if (IsKeyword(keyword)) return true;
    for (const char* op : ops)
      if (IsOp(op)) return true;
    return false;
  }

  std::unique_ptr<Node> ParseSequence(std::initializer_list<const char*> keywords,
                                      std::initializer_list<const char*> ops) {
    auto sequence = std::make_unique<Node>();
    sequence->kind = Node::Kind::kSequence;
    sequence->offset = Current().offset;
    while (true) {
      while (Current().kind == Token::Kind::kNewline || IsOp(";")) ++pos_;
      if (AtTerminator(keywords, ops)) break;
      size_t before = pos_;
      auto node = ParseAndOr();
      if (pos_ == before) {  // nothing consumed: skip the token to guarantee progress
        Report("unexpected '" + Describe(Current()) + "'", Current().offset);
        ++pos_;
        continue;
      }
      bool background = false;
      if (IsOp("&")) {
        background = true;
        ++pos_;
      }
      if (node) {
        sequence->children.push_back(std::move(node));
        sequence->background.push_back(background);
      }
    }
    return sequence;
  }

  std::unique_ptr<Node> ParseAndOr() {
    auto first = ParsePipeline();
    if (!IsOp("&&") && !IsOp("||")) return first;
    auto list = std::make_unique<Node>();
    list->kind = Node::Kind::kAndOr;
    list->offset = first ? first->offset : Current().offset;
    if (first) list->children.push_back(std::move(first));
    while (IsOp("&&") || IsOp("||")) {
      list->ops.push_back(Current().op);
      ++pos_;
      SkipNewlines();
      auto next = ParsePipeline();
      if (!next) break;
      list->children.push_back(std::move(next));
    }
    return list;
  }

  std::unique_ptr<Node> ParsePipeline() {
    if (IsKeyword("!") || IsKeyword("time")) ++pos_;
    auto first = ParseCommand();
    if (!IsOp("|") && !IsOp("|&")) return first;
    auto pipeline = std::make_unique<Node>();
    pipeline->kind = Node::Kind::kPipeline;
    pipeline->offset = first ? first->offset : Current().offset;
    if (first) pipeline->children.push_back(std::move(first));
    while (IsOp("|") || IsOp("|&")) {
      ++pos_;
      SkipNewlines();
      auto next = ParseCommand();
      if (!next) break;
      pipeline->children.push_back(std::move(next));
    }
    return pipeline;
  }

  std::unique_ptr<Node> ParseCommand() {
    if (AtEnd()) return nullptr;
    if (depth_ >= kMaxNesting) {
      Report("nesting deeper than 100 levels: the rest of the script is not read",
             Current().offset);
      while (!AtEnd()) ++pos_;
      return nullptr;
    }
    ++depth_;
    auto node = ParseCommandInner();
    --depth_;
    if (node && node->kind != Node::Kind::kCommand) ReadRedirects(node.get());
    return node;
  }

  std::unique_ptr<Node> ParseCommandInner() {
    if (IsOp("((")) {
      auto node = std::make_unique<Node>();
      node->kind = Node::Kind::kNoop;
      node->offset = Current().offset;
      ++pos_;
      return node;
    }
    if (IsOp("(")) {
      auto node = std::make_unique<Node>();
      node->kind = Node::Kind::kSubshell;
      node->offset = Current().offset;
      ++pos_;
      node->children.push_back(ParseSequence({}, {")"}));
      if (IsOp(")")) {
        ++pos_;
      } else {
        Report("'(' is never closed", node->offset);
      }
      return node;
    }
    if (Current().kind == Token::Kind::kWord) {
      std::string keyword;
      Current().word.IsLiteral(&keyword);
      if (keyword == "if") return ParseIf();
      if (keyword == "case") return ParseCase();
      if (keyword == "for" || keyword == "select") return ParseFor();
      if (keyword == "while" || keyword == "until") return ParseWhile(keyword == "until");
      if (keyword == "{") return ParseGroup();
      if (keyword == "function") return ParseFunction(true);
      if (IsName(keyword) && pos_ + 2 < tokens_.size() &&
          tokens_[pos_ + 1].kind == Token::Kind::kOperator && tokens_[pos_ + 1].op == "(" &&
          tokens_[pos_ + 2].kind == Token::Kind::kOperator && tokens_[pos_ + 2].op == ")")
        return ParseFunction(false);
      if (keyword == "then" || keyword == "fi" || keyword == "do" || keyword == "done" ||
          keyword == "esac" || keyword == "}" || keyword == "else" || keyword == "elif")
        return nullptr;
    }
    if (Current().kind == Token::Kind::kOperator && !IsRedirect(Current().op)) return nullptr;
    return ParseSimple();
  }

  void ReadRedirects(Node* node) {
    while (Current().kind == Token::Kind::kOperator && IsRedirect(Current().op)) {
      Redirect redirect;
      redirect.op = Current().op;
      redirect.heredoc = Current().heredoc;
      if (redirect.heredoc >= 0) {
        redirect.target = TakeWord();
        ++pos_;
      } else {
        ++pos_;
        if (Current().kind == Token::Kind::kWord) {
          redirect.target = TakeWord();
          ++pos_;
        }
      }
      node->redirects.push_back(std::move(redirect));
    }
  }

  std::unique_ptr<Node> ParseSimple() {
    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::kCommand;
    node->offset = Current().offset;
    bool leading = true;  // assignments only count before the first word
    while (!AtEnd()) {
      const Token& token = Current();
      if (token.kind == Token::Kind::kOperator) {
        if (!IsRedirect(token.op)) break;
        ReadRedirects(node.get());
        continue;
      }
      if (token.kind == Token::Kind::kNewline) break;
      if (token.kind == Token::Kind::kAssignmentArray) {
        Assignment assignment;
        std::string prefix;
        token.word.IsLiteral(&prefix);
        assignment.append = prefix.size() >= 2 && prefix[prefix.size() - 2] == '+';
        assignment.name = prefix.substr(0, prefix.size() - (assignment.append ? 2 : 1));
        assignment.is_array = true;
        assignment.elements = std::move(tokens_[pos_].elements);
        assignment.offset = token.offset;
        if (leading || IsDeclaration(node.get())) {
          node->assignments.push_back(std::move(assignment));
        } else {
          node->words.push_back(TakeWord());
        }
        ++pos_;
        continue;
      }
      Assignment assignment;
      if ((leading || IsDeclaration(node.get())) && SplitAssignment(token.word, &assignment)) {
        node->assignments.push_back(std::move(assignment));
      } else {
        leading = false;
        node->words.push_back(TakeWord());
      }
      ++pos_;
    }
    return node;
  }

  // export/local/declare/readonly/typeset take assignments as arguments.
  static bool IsDeclaration(const Node* node) {
    if (node->words.size() != 1) return false;
    std::string text;
    if (!node->words[0].IsLiteral(&text)) return false;
    return text == "export" || text == "local" || text == "declare" || text == "readonly" ||
           text == "typeset";
  }

  // NAME=value, NAME+=value, NAME[i]=value: splits the first literal part at '='.
  static bool SplitAssignment(const Word& word, Assignment* out) {
    if (word.parts.empty() || word.parts[0].kind != WordPart::Kind::kLiteral ||
        word.parts[0].quoted)
      return false;
    const std::string& first = word.parts[0].text;
    size_t eq = first.find('=');
    if (eq == std::string::npos || eq == 0) return false;
    std::string lhs = first.substr(0, eq);
    if (!lhs.empty() && lhs.back() == '+') {
      out->append = true;
      lhs.pop_back();
    }
    size_t bracket = lhs.find('[');
    if (bracket != std::string::npos && lhs.back() == ']') {
      out->index = lhs.substr(bracket + 1, lhs.size() - bracket - 2);
      lhs = lhs.substr(0, bracket);
    }
    if (!IsName(lhs)) return false;
    out->name = lhs;
    out->offset = word.offset;
    out->value.offset = word.parts[0].offset + eq + 1;
    WordPart rest = word.parts[0];
    rest.text = first.substr(eq + 1);
    rest.offset = word.parts[0].offset + eq + 1;
    rest.length = rest.text.size();
    if (!rest.exact) rest.length = word.parts[0].length > eq + 1 ? word.parts[0].length - eq - 1 : 0;
    if (!rest.text.empty()) out->value.parts.push_back(rest);
    for (size_t i = 1; i < word.parts.size(); ++i) out->value.parts.push_back(word.parts[i]);
    out->value.length = word.offset + word.length - out->value.offset;
    return true;
  }

  std::unique_ptr<Node> ParseIf() {
    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::kIf;
    node->offset = Current().offset;
    ++pos_;  // if
    node->children.push_back(ParseSequence({"then"}, {}));
    Expect("then");
    node->children.push_back(ParseSequence({"elif", "else", "fi"}, {}));
    while (IsKeyword("elif")) {
      ++pos_;
      node->children.push_back(ParseSequence({"then"}, {}));
      Expect("then");
      node->children.push_back(ParseSequence({"elif", "else", "fi"}, {}));
    }
    if (IsKeyword("else")) {
      ++pos_;
      node->has_else = true;
      node->children.push_back(ParseSequence({"fi"}, {}));
    }
    Expect("fi");
    return node;
  }

  std::unique_ptr<Node> ParseCase() {
    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::kCase;
    node->offset = Current().offset;
    ++pos_;  // case
    if (Current().kind == Token::Kind::kWord) {
      node->subject = TakeWord();
      ++pos_;
    }
    SkipNewlines();
    Expect("in");
    while (true) {
      SkipNewlines();
      if (AtEnd() || IsKeyword("esac")) break;
      if (IsOp("(")) ++pos_;
      std::vector<Word> patterns;
      while (Current().kind == Token::Kind::kWord) {
        patterns.push_back(TakeWord());
        ++pos_;
        if (IsOp("|")) ++pos_;
      }
      if (!IsOp(")")) {
        Report("expected ')' after a case pattern", Current().offset);
        break;
      }
      ++pos_;
      node->patterns.push_back(std::move(patterns));
      node->children.push_back(ParseSequence({"esac"}, {";;", ";&", ";;&"}));
      if (IsOp(";;") || IsOp(";&") || IsOp(";;&")) ++pos_;
    }
    Expect("esac");
    return node;
  }

  std::unique_ptr<Node> ParseFor() {
    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::kFor;
    node->offset = Current().offset;
    ++pos_;  // for
    if (IsOp("((")) {
      ++pos_;  // for ((...)): the variable is not known
    } else if (Current().kind == Token::Kind::kWord) {
      Current().word.IsLiteral(&node->name);
      ++pos_;
      SkipNewlines();
      if (IsKeyword("in")) {
        node->has_in = true;
        ++pos_;
        while (Current().kind == Token::Kind::kWord) {
          node->items.push_back(Current().word);
          ++pos_;
        }
      }
    }
    while (IsOp(";") || Current().kind == Token::Kind::kNewline) ++pos_;
    Expect("do");
    node->children.push_back(ParseSequence({"done"}, {}));
    Expect("done");
    return node;
  }

  std::unique_ptr<Node> ParseWhile(bool until) {
    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::kWhile;
    node->until = until;
    node->offset = Current().offset;
    ++pos_;
    node->children.push_back(ParseSequence({"do"}, {}));
    Expect("do");
    node->children.push_back(ParseSequence({"done"}, {}));
    Expect("done");
    return node;
  }

  std::unique_ptr<Node> ParseGroup() {
    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::kGroup;
    node->offset = Current().offset;
    ++pos_;  // {
    node->children.push_back(ParseSequence({"}"}, {}));
    Expect("}");
    return node;
  }

  std::unique_ptr<Node> ParseFunction(bool keyword_form) {
    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::kFunction;
    node->offset = Current().offset;
    if (keyword_form) ++pos_;  // function
    // `function` last in the text has no name: reading on went past the end token (a heap
    // overflow, found by tests/fuzz/fuzz_edits).
    if (AtEnd()) {
      Report("function has no name", node->offset);
      node->children.push_back(std::make_unique<Node>());
      return node;
    }
    Current().word.IsLiteral(&node->name);
    ++pos_;
    if (IsOp("(") && pos_ + 1 < tokens_.size() && tokens_[pos_ + 1].op == ")") pos_ += 2;
    SkipNewlines();
    auto body = ParseCommand();
    if (!body) {
      Report("function '" + node->name + "' has no body", node->offset);
      body = std::make_unique<Node>();
    }
    node->children.push_back(std::move(body));
    return node;
  }

  std::vector<Token>& tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
  std::vector<LexDiagnostic>* diagnostics_ = nullptr;
};

}  // namespace

ParsedScript ParseShell(std::string_view text) {
  ParsedScript script;
  script.lexed = LexShell(text);
  Parser parser(script.lexed);
  script.root = parser.Run(&script.diagnostics);
  // The tree holds what the tokens held (the parser moved their words out); the emptied tokens
  // would only take memory where parses are kept for the whole run (ParseCache).
  std::vector<Token>().swap(script.lexed.tokens);
  return script;
}

}  // namespace gpulint
