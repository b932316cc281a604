// The shell syntax tree: sequences, and-or lists, pipelines, simple commands and the compound
// commands (if, case, for, while, groups, functions) that launch scripts use.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lint/reader/shell_word.h"

namespace gpulint {

struct Assignment {
  std::string name;
  bool append = false;          ///< NAME+=...
  bool is_array = false;        ///< NAME=( ... )
  std::string index;            ///< NAME[index]=...
  Word value;                   ///< the text after '=' (scalar)
  std::vector<Word> elements;   ///< array elements
  size_t offset = 0;            ///< of NAME
};

struct Redirect {
  std::string op;    ///< ">", ">>", "<", "2>", "<<", ...
  Word target;       ///< file name, or the heredoc delimiter word
  int heredoc = -1;  ///< index into Lexed::heredocs
};

struct Node {
  enum class Kind {
    kSequence,  ///< children run one after another; background[i]: ended with '&'
    kAndOr,     ///< children joined by ops ("&&" / "||")
    kPipeline,  ///< children joined by '|'
    kCommand,   ///< assignments, words, redirects
    kIf,        ///< children: cond0, body0, cond1, body1, ..., [else body]
    kCase,      ///< subject; patterns[i] for children[i]
    kFor,       ///< name, items (has_in), children[0] = body
    kWhile,     ///< children[0] = condition, children[1] = body (also `until`)
    kGroup,     ///< { ... }: children[0]
    kSubshell,  ///< ( ... ): children[0]
    kFunction,  ///< name, children[0] = body
    kNoop,      ///< (( ... )) and what could not be parsed
  };
  Kind kind = Kind::kNoop;
  size_t offset = 0;
  std::vector<std::unique_ptr<Node>> children;
  std::vector<bool> background;
  std::vector<std::string> ops;
  std::vector<Assignment> assignments;
  std::vector<Word> words;
  std::vector<Redirect> redirects;
  bool has_else = false;
  Word subject;
  std::vector<std::vector<Word>> patterns;
  std::string name;
  std::vector<Word> items;
  bool has_in = false;
  bool until = false;
};

}  // namespace gpulint
