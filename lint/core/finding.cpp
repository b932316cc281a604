#include "lint/core/finding.h"

#include <tuple>

namespace gpulint {

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kInfo: return "info";
    case Severity::kWarning: return "warning";
    case Severity::kError: return "error";
  }
  return "warning";
}

bool ParseSeverity(const std::string& text, Severity* severity) {
  if (text == "info") *severity = Severity::kInfo;
  else if (text == "warning") *severity = Severity::kWarning;
  else if (text == "error") *severity = Severity::kError;
  else return false;
  return true;
}

bool FindingLess(const Finding& a, const Finding& b) {
  return std::tie(a.span.path, a.span.line, a.span.col, a.rule, a.message) <
         std::tie(b.span.path, b.span.line, b.span.col, b.rule, b.message);
}

}  // namespace gpulint
