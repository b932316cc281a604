// checkstyle: Checkstyle XML, one <file> per linted file (clean files too, as Checkstyle does).
#include <fmt/format.h>

#include "lint/report/reporter.h"

namespace gpulint {

std::string RenderCheckstyle(const ReportInput& input) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n";
  for (const ReportFile& file : input.files) {
    out += fmt::format("  <file name=\"{}\">\n", XmlEscape(file.path));
    // Every text is escaped, the rule's id and name too: a finding holds whatever a rule pack
    // gave it, and one control byte makes the whole report invalid XML (tests/fuzz/fuzz_reporters).
    for (const Finding& f : file.findings)
      out += fmt::format(
          "    <error line=\"{}\" column=\"{}\" severity=\"{}\" message=\"{}\" "
          "source=\"gpulint.{}.{}\"/>\n",
          f.span.line, f.span.col, SeverityName(f.severity), XmlEscape(f.message),
          XmlEscape(f.rule), XmlEscape(f.name));
    out += "  </file>\n";
  }
  return out + "</checkstyle>\n";
}

}  // namespace gpulint
