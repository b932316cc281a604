// text: `path:line:col: severity[GLnnn name] message`, the source line and a caret, a summary.
// concise: the first line only.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "lint/report/reporter.h"
#include "lint/report/safe_text.h"
#include "lint/util/word_wrap.h"

namespace gpulint {
namespace {

const char* SeverityColor(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return "\x1b[1;31m";
    case Severity::kWarning:
      return "\x1b[1;33m";
    case Severity::kInfo:
      return "\x1b[1;36m";
  }
  return "";
}

// Continuation lines of a wrapped message or fix.
constexpr std::string_view kWrapIndent = "    ";

// `text` after a prefix of `used` columns, wrapped at `columns` (0: not at all). A message
// gets at least a third of the line after a long path.
std::string Wrapped(const std::string& text, size_t used, size_t columns) {
  if (columns == 0) return text;
  const size_t first = used + columns / 3 < columns ? columns - used : columns / 3;
  return WordWrap(text, first, columns, kWrapIndent);
}

std::string Header(const Finding& f, bool color, size_t columns = 0) {
  std::string severity = SeverityName(f.severity);
  // The rule's id and name are made printable like the message (tests/fuzz/fuzz_reporters).
  std::string prefix = fmt::format("{}:{}:{}: ", Printable(f.span.path), f.span.line, f.span.col);
  std::string rule = fmt::format("[{} {}] ", Printable(f.rule), Printable(f.name));
  const size_t used = prefix.size() + severity.size() + rule.size();
  if (color) severity = std::string(SeverityColor(f.severity)) + severity + "\x1b[0m";
  return prefix + severity + rule + Wrapped(Printable(f.message), used, columns);
}

// "3 of 12 workloads not judged: 2 the model is not known; 1 gpulint does not model ..."
// (a reason up to its first ':', '(' or quote groups the same cause: unknown model 'X').
std::string Unjudged(const ReportInput& input) {
  if (input.unestimated.empty()) return "";
  std::map<std::string, int> reasons;
  for (const std::string& reason : input.unestimated) {
    std::string head = reason.substr(0, reason.find_first_of(":('"));
    while (!head.empty() && head.back() == ' ') head.pop_back();
    ++reasons[Printable(head)];
  }
  std::vector<std::pair<int, std::string>> sorted;
  for (const auto& [reason, count] : reasons) sorted.emplace_back(-count, reason);
  std::sort(sorted.begin(), sorted.end());
  std::string list;
  for (const auto& [count, reason] : sorted)
    list += fmt::format("{}{} {}", list.empty() ? "" : "; ", -count, reason);
  return fmt::format("{} of {} workload{} not judged: {}.\n", input.unestimated.size(),
                     input.workloads, input.workloads == 1 ? "" : "s", list);
}

std::string SummaryCounts(const ReportInput& input) {
  int errors = input.Count(Severity::kError), warnings = input.Count(Severity::kWarning),
      infos = input.Count(Severity::kInfo);
  if (errors + warnings + infos == 0)
    return fmt::format("No problems found in {} file{}.\n", input.files.size(),
                       input.files.size() == 1 ? "" : "s");
  return fmt::format("Found {} error{}, {} warning{} and {} info{} in {} file{}.\n", errors,
                     errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s", infos,
                     infos == 1 ? "" : "s", input.files.size(), input.files.size() == 1 ? "" : "s");
}

// "2 fixable with `gpulint fix --write` (1 more with --unsafe-fixes)": a finding counts once,
// as safe when one of its fixes is.
std::string Fixable(const ReportInput& input) {
  int safe = 0, unsafe = 0;
  for (const ReportFile& file : input.files)
    for (const Finding& f : file.findings) {
      if (f.fixes.empty()) continue;
      bool any_safe =
          std::any_of(f.fixes.begin(), f.fixes.end(), [](const Fix& fix) { return fix.safe; });
      ++(any_safe ? safe : unsafe);
    }
  if (safe + unsafe == 0) return "";
  if (safe == 0)
    return fmt::format(
        "{} finding{} {} only unsafe fixes (they change how the job runs): "
        "`gpulint fix --unsafe-fixes` shows them as a diff.\n",
        unsafe, unsafe == 1 ? "" : "s", unsafe == 1 ? "has" : "have");
  std::string more = unsafe == 0 ? "" : fmt::format(" ({} more with --unsafe-fixes)", unsafe);
  return fmt::format("{} fixable with `gpulint fix --write`{}.\n", safe, more);
}

// "Read in part: run.sh:1: more than 512 GPU workloads; the rest are not read", one line each.
std::string ReadInPart(const ReportInput& input) {
  std::string out;
  for (const std::string& where : input.read_in_part)
    out += fmt::format("Read in part: {}.\n", Printable(where));
  return out;
}

std::string Summary(const ReportInput& input) {
  if (input.quiet) return "";
  std::string text = SummaryCounts(input) + Fixable(input) + Unjudged(input) + ReadInPart(input);
  if (input.wrap_columns == 0) return text;
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    // Each line as written; one without a newline at the end gets one.
    size_t end = std::min(text.find('\n', start), text.size());
    out += Wrapped(text.substr(start, end - start), 0, input.wrap_columns) + "\n";
    start = end + 1;
  }
  return out;
}

}  // namespace

std::string RenderTextFile(const ReportInput& input, const ReportFile& file) {
  std::string out;
  for (const Finding& f : file.findings) {
    out += Header(f, input.color, input.wrap_columns) + "\n";
    std::string line = input.LineText(file, f.span.path, f.span.line);
    if (!line.empty()) {
      size_t col = f.span.col > 0 ? static_cast<size_t>(f.span.col - 1) : 0;
      // A window of the line around the finding: a minified 400 KB line is not shown whole.
      constexpr size_t kBefore = 60, kWidth = 200;
      std::string lead;
      if (line.size() > kWidth && col > kBefore) {
        size_t start = std::min(col - kBefore, line.size() - 1);
        line = line.substr(start);
        col -= start;
        lead = "...";
      }
      std::string tail = line.size() > kWidth ? "..." : "";
      if (line.size() > kWidth) line.resize(kWidth);
      // Control characters are shown as \xNN, so the caret is placed by the printed prefix.
      std::string prefix = Printable(line.substr(0, std::min(col, line.size())));
      out += fmt::format("  {}{}{}\n", lead, Printable(line), tail);
      std::string pad(lead.size(), ' ');
      for (char c : prefix) pad += c == '\t' ? '\t' : ' ';
      size_t end = std::min(line.size(), col + f.span.length);
      size_t width = end > col ? Printable(line.substr(col, end - col)).size() : 1;
      out += fmt::format("  {}{}\n", pad, std::string(width, '^'));
    }
    for (const Fix& fix : f.fixes) {
      const std::string head = fmt::format("  fix{}: ", fix.safe ? "" : " (unsafe)");
      out += head + Wrapped(Printable(fix.description), head.size(), input.wrap_columns) + "\n";
    }
  }
  return out;
}

std::string RenderConciseFile(const ReportInput& input, const ReportFile& file) {
  std::string out;
  for (const Finding& f : file.findings) out += Header(f, input.color) + "\n";
  return out;
}

std::string RenderTextSummary(const ReportInput& input) {
  return Summary(input);
}

std::string RenderText(const ReportInput& input) {
  std::string out;
  for (const ReportFile& file : input.files) out += RenderTextFile(input, file);
  return out + Summary(input);
}

std::string RenderConcise(const ReportInput& input) {
  std::string out;
  for (const ReportFile& file : input.files) out += RenderConciseFile(input, file);
  return out + Summary(input);
}

}  // namespace gpulint
