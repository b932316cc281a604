// Builds the syntax tree from lexer tokens. Never fails: unexpected tokens are skipped with a
// diagnostic, and nesting deeper than a fixed limit stops the parse instead of the stack.
#pragma once

#include <memory>
#include <string_view>

#include "lint/reader/shell_ast.h"
#include "lint/reader/shell_lexer.h"

namespace gpulint {

struct ParsedScript {
  Lexed lexed;                  ///< comments, heredocs, lexer diagnostics (tokens: emptied)
  std::unique_ptr<Node> root;   ///< a kSequence
  std::vector<LexDiagnostic> diagnostics;  ///< parser diagnostics
};

ParsedScript ParseShell(std::string_view text);

}  // namespace gpulint
