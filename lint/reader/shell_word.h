// Words as the shell lexer sees them: literal runs, parameter expansions, command and
// arithmetic substitutions, each with the byte range it was written in.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gpulint {

struct WordPart {
  enum class Kind {
    kLiteral,       ///< plain characters (text holds them after quote removal)
    kParameter,     ///< $X, ${X}, ${X:-word}, ${X[@]}, ${#X}
    kCommandSubst,  ///< $(...) or `...`: never run, its value is unknown
    kArithmetic,    ///< $((...)): evaluated when every variable in it is known
  };
  Kind kind = Kind::kLiteral;
  size_t offset = 0;   ///< source range of the whole part (for a literal: of its characters)
  size_t length = 0;
  bool quoted = false; ///< inside '...' or "..."
  bool exact = true;   ///< literal only: text equals the source bytes (no escape inside)

  std::string text;    ///< literal characters; arithmetic / substitution source text
  // Parameter expansions.
  std::string name;    ///< variable name, or "1".."9", "@", "*", "#"
  std::string op;      ///< "", ":-", "-", ":=", "=", ":+", "+", ":?", "?", or "other"
  std::vector<WordPart> argument;  ///< the word after op (${X:-argument})
  std::string index;   ///< "@", "*", a number, or "" (no subscript)
  bool length_of = false;  ///< ${#X}
};

struct Word {
  std::vector<WordPart> parts;
  size_t offset = 0;
  size_t length = 0;

  /// The text when the word is one or more literal parts; false if anything expands.
  bool IsLiteral(std::string* text = nullptr) const;
};

}  // namespace gpulint
