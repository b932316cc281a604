// One finding, shared by every stage: the rule engine makes it, the tuner attaches edits,
// reporters print it. Positions are 1-based lines and 1-based UTF-8 byte columns, end exclusive.
#pragma once

#include <string>
#include <vector>

#include "lint/core/source_span.h"

namespace gpulint {

enum class Severity { kInfo, kWarning, kError };
const char* SeverityName(Severity severity);
bool ParseSeverity(const std::string& text, Severity* severity);

/// Replace [span.offset, span.offset + span.length) of span.path with `text`.
struct Edit {
  SourceSpan span;
  std::string text;
};

struct Fix {
  std::string description;  ///< "set grad_ckpt = true", "micro_batch 16 -> 4"
  std::vector<Edit> edits;
  bool safe = true;         ///< applied by `gpulint fix` without --unsafe-fixes
};

struct Finding {
  std::string rule;         ///< GL101
  std::string name;         ///< out-of-memory
  Severity severity = Severity::kWarning;
  std::string message;
  SourceSpan span;          ///< primary location (file, line, column, length)
  std::vector<SourceSpan> related;
  std::vector<Fix> fixes;
  std::string url;          ///< the rule's documentation
  int command_line = 0;     ///< first line of the command it is about (for suppressions)
};

/// Orders findings by path, line, column, rule: the order every reporter prints.
bool FindingLess(const Finding& a, const Finding& b);

}  // namespace gpulint
