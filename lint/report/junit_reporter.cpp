// junit: JUnit XML for CI systems that only read test reports. Every file is a test case;
// each finding at or above warning is a failure of it (infos are listed in system-out).
#include <fmt/format.h>

#include <algorithm>

#include "lint/report/reporter.h"

namespace gpulint {

std::string RenderJunit(const ReportInput& input) {
  int failures = 0;
  std::string cases;
  for (const ReportFile& file : input.files) {
    std::string failed, notes;
    for (const Finding& f : file.findings) {
      std::string line = fmt::format("{}:{}:{}: {}[{} {}] {}", f.span.path, f.span.line,
                                     f.span.col, SeverityName(f.severity), f.rule, f.name,
                                     f.message);
      if (f.severity == Severity::kInfo)
        notes += line + "\n";
      else
        failed += line + "\n";
    }
    cases += fmt::format("    <testcase name=\"{}\" classname=\"gpulint\">\n", XmlEscape(file.path));
    if (!failed.empty()) {
      ++failures;
      cases += fmt::format("      <failure message=\"{}\" type=\"gpulint\">{}</failure>\n",
                           XmlEscape(fmt::format("{} problem(s)", std::count(failed.begin(),
                                                                              failed.end(), '\n'))),
                           XmlEscape(failed));
    }
    if (!notes.empty()) cases += fmt::format("      <system-out>{}</system-out>\n", XmlEscape(notes));
    cases += "    </testcase>\n";
  }
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
      "  <testsuite name=\"gpulint\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n{}"
      "  </testsuite>\n</testsuites>\n",
      input.files.size(), failures, cases);
}

}  // namespace gpulint
