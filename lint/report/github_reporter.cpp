// github: GitHub Actions workflow commands, one annotation per finding:
//   ::error file=F,line=L,endLine=L,col=C,endColumn=C2,title=GL101 out-of-memory::message
// Data escapes %, CR and LF; properties also ':' and ','. Findings span one line, so the
// column range is always given.
#include <fmt/format.h>

#include "lint/report/reporter.h"
#include "lint/report/safe_text.h"

namespace gpulint {
namespace {

std::string EscapeData(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '%')
      out += "%25";
    else if (c == '\r')
      out += "%0D";
    else if (c == '\n')
      out += "%0A";
    else
      out += c;
  }
  return out;
}

std::string EscapeProperty(const std::string& text) {
  std::string out;
  for (char c : EscapeData(text)) {
    if (c == ':')
      out += "%3A";
    else if (c == ',')
      out += "%2C";
    else
      out += c;
  }
  return out;
}

const char* Command(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kInfo:
      return "notice";
  }
  return "notice";
}

}  // namespace

std::string RenderGithub(const ReportInput& input) {
  std::string out;
  for (const ReportFile& file : input.files)
    for (const Finding& f : file.findings)
      // The rule's id and name are escaped like its message: a finding holds whatever text a
      // rule pack gave it (tests/fuzz/fuzz_reporters).
      out += fmt::format("::{} file={},line={},endLine={},col={},endColumn={},title={}::{}\n",
                         Command(f.severity), EscapeProperty(Printable(f.span.path)), f.span.line,
                         f.span.line, f.span.col,
                         f.span.col + static_cast<int>(std::max<size_t>(f.span.length, 1)),
                         EscapeProperty(Printable(f.rule + " " + f.name)),
                         EscapeData(Printable(f.message)));
  return out;
}

}  // namespace gpulint
