// checkstyle: Checkstyle XML, one <file> per linted file (clean files too, as Checkstyle does).
#include <fmt/format.h>

#include "lint/report/reporter.h"

namespace gpulint {

std::string RenderCheckstyle(const ReportInput& input) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n";
  for (const ReportFile& file : input.files) {
    out += fmt::format("  <file name=\"{}\">\n", XmlEscape(file.path));
    for (const Finding& f : file.findings)
      out += fmt::format(
          "    <error line=\"{}\" column=\"{}\" severity=\"{}\" message=\"{}\" "
          "source=\"gpulint.{}.{}\"/>\n",
          f.span.line, f.span.col, SeverityName(f.severity), XmlEscape(f.message), f.rule,
          f.name);
    out += "  </file>\n";
  }
  return out + "</checkstyle>\n";
}

}  // namespace gpulint
