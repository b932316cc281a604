// Splits shell text into words and operators the way bash does (quotes, escapes, line
// continuations, expansions, heredocs, comments), without running anything. Linear time; nesting
// of ${...} inside defaults is capped so that hostile input cannot exhaust the stack.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lint/reader/shell_word.h"

namespace gpulint {

struct Heredoc {
  std::string delimiter;
  bool expand = true;        ///< unquoted delimiter: $X in the body expands
  bool strip_tabs = false;   ///< <<-
  std::string body;          ///< after tab stripping
  size_t body_offset = 0;    ///< where the body starts in the source
  bool terminated = false;
};

struct Token {
  enum class Kind {
    kWord,
    kAssignmentArray,  ///< NAME=( ... ) or NAME+=( ... )
    kOperator,         ///< ; ;; & && | || ( ) and redirections
    kNewline,
    kEnd,
  };
  Kind kind = Kind::kWord;
  std::string op;              ///< operator text
  Word word;                   ///< kWord; kAssignmentArray: the "NAME=" prefix word
  std::vector<Word> elements;  ///< kAssignmentArray
  size_t offset = 0;
  int heredoc = -1;            ///< index into Lexed::heredocs for a << operator
};

struct Comment {
  std::string text;  ///< without the leading '#'
  size_t offset = 0;  ///< of the '#'
};

struct LexDiagnostic {
  std::string message;
  size_t offset = 0;
};

struct Lexed {
  std::vector<Token> tokens;
  std::vector<Comment> comments;
  std::vector<Heredoc> heredocs;
  std::vector<LexDiagnostic> diagnostics;
};

/// Lexes a whole script. Never fails: problems (an unterminated quote or heredoc) become
/// diagnostics and the lexer recovers at the end of the input.
Lexed LexShell(std::string_view text);

/// Lexes a heredoc body whose delimiter was unquoted: $X, ${X} and `...` expand, quotes are
/// plain characters. Offsets are relative to `body`.
std::vector<WordPart> LexHeredocBody(std::string_view body);

}  // namespace gpulint
