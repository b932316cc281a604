// Stable fingerprints of findings: the rule id and the finding's line with whitespace
// normalized, never the line number, so that code moving up or down keeps its fingerprint
// (SARIF partialFingerprints, GitLab Code Quality, baselines).
#pragma once

#include <string>

namespace gpulint {

/// 16 hex digits of FNV-1a 64 over "rule|normalized line|occurrence".
std::string Fingerprint(const std::string& rule, const std::string& line_text, int occurrence = 0);

}  // namespace gpulint
