// gitlab: a Code Quality report (a JSON array) for merge-request widgets. Fingerprints are
// unique within the report and ignore line numbers.
#include <nlohmann/json.hpp>

#include "lint/core/fingerprint.h"
#include "lint/report/reporter.h"

namespace gpulint {

std::string RenderGitlab(const ReportInput& input) {
  using Json = nlohmann::ordered_json;
  std::vector<std::string> fingerprints = Fingerprints(input);
  Json issues = Json::array();
  size_t n = 0;
  for (const ReportFile& file : input.files)
    for (const Finding& f : file.findings) {
      const char* severity = f.severity == Severity::kError     ? "major"
                             : f.severity == Severity::kWarning ? "minor"
                                                                : "info";
      issues.push_back({{"description", f.rule + ": " + f.message},
                        {"check_name", f.rule + " " + f.name},
                        // The path joins the hash: the same line in two files is two issues.
                        {"fingerprint", fingerprints[n++] + Fingerprint(f.span.path, "")},
                        {"severity", severity},
                        {"location", {{"path", f.span.path}, {"lines", {{"begin", f.span.line}}}}}});
    }
  return issues.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace gpulint
