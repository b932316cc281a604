// markdown: a pull-request comment a reviewer wants to read: a verdict per workload, the
// findings by file with links to their rules, fixes as `suggestion` blocks that replace whole
// lines, and the memory breakdown folded away.
#include <fmt/format.h>

#include <algorithm>

#include "lint/report/estimate_report.h"
#include "lint/report/reporter.h"
#include "lint/report/safe_text.h"

namespace gpulint {
namespace {

const char* Badge(Severity severity) {
  switch (severity) {
    case Severity::kError: return "**error**";
    case Severity::kWarning: return "warning";
    case Severity::kInfo: return "info";
  }
  return "";
}

std::string Inline(const std::string& text) { return MarkdownInline(text); }

// The lines the fix changes, as they read after it: GitHub applies a suggestion to whole lines.
std::string Suggestion(const FileAnalysis& analysis, const Fix& fix) {
  const std::string& text = analysis.file.text;
  std::vector<Edit> edits;
  for (const Edit& edit : fix.edits)
    if (edit.span.path == analysis.file.path) edits.push_back(edit);
  if (edits.empty() || edits.size() != fix.edits.size()) return "";
  std::sort(edits.begin(), edits.end(),
            [](const Edit& a, const Edit& b) { return a.span.offset > b.span.offset; });
  size_t first = text.rfind('\n', edits.back().span.offset == 0 ? 0 : edits.back().span.offset - 1);
  first = first == std::string::npos ? 0 : first + 1;
  size_t last = text.find('\n', edits.front().span.end());
  if (last == std::string::npos) last = text.size();
  std::string lines = text.substr(first, last - first);
  for (const Edit& edit : edits)  // from the end, so earlier offsets stay valid
    lines.replace(edit.span.offset - first, edit.span.length, edit.text);
  return fmt::format("  ```suggestion\n{}\n  ```\n", [&] {
    std::string indented;
    size_t start = 0;
    while (start <= lines.size()) {
      size_t end = lines.find('\n', start);
      if (end == std::string::npos) end = lines.size();
      indented += (indented.empty() ? "  " : "\n  ") + lines.substr(start, end - start);
      start = end + 1;
    }
    return indented;
  }());
}

}  // namespace

// GitHub refuses a comment body over 65,536 characters; a byte count is never below the
// character count. The reserve keeps room for the note that says what was cut.
constexpr size_t kCommentLimitBytes = 65536;
constexpr size_t kNoteReserveBytes = 512;

std::string RenderMarkdown(const ReportInput& input) {
  int errors = input.Count(Severity::kError), warnings = input.Count(Severity::kWarning),
      infos = input.Count(Severity::kInfo);
  std::string out = fmt::format("### gpulint: {} error{}, {} warning{}, {} info{} in {} file{}\n\n",
                                errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s",
                                infos, infos == 1 ? "" : "s", input.files.size(),
                                input.files.size() == 1 ? "" : "s");
  const size_t budget = kCommentLimitBytes - kNoteReserveBytes;
  // Verdict rows, then findings (most severe first within each file, as reported), then the
  // breakdowns: each goes in whole while it fits, and what does not is counted in the note.
  std::string rows, breakdowns;
  int rows_cut = 0;
  for (const ReportFile& file : input.files)
    if (file.analysis) {
      std::string more = VerdictRows(*file.analysis);
      if (out.size() + VerdictTableHeader().size() + rows.size() + more.size() > budget / 2)
        rows_cut += static_cast<int>(std::count(more.begin(), more.end(), '\n'));
      else
        rows += more;
      breakdowns += BreakdownMarkdown(*file.analysis);
    }
  if (!rows.empty()) out += VerdictTableHeader() + rows + "\n";
  int findings_cut = 0;
  for (const ReportFile& file : input.files) {
    if (file.findings.empty()) continue;
    std::string heading = fmt::format("#### `{}`\n\n", Inline(file.path));
    bool headed = false;
    for (const Finding& f : file.findings) {
      // Every text through Inline, the rule's id, name and link too (tests/fuzz/fuzz_reporters).
      std::string item = fmt::format("- {} [{} {}]({}) line {}: {}\n", Badge(f.severity),
                                     Inline(f.rule), Inline(f.name), Inline(f.url), f.span.line,
                                     Inline(f.message));
      for (const Fix& fix : f.fixes) {
        item += fmt::format("  fix{}: {}\n", fix.safe ? "" : " (changes how the job runs)",
                            Inline(fix.description));
        if (file.analysis) item += Suggestion(*file.analysis, fix);
      }
      if (findings_cut > 0 || out.size() + (headed ? 0 : heading.size()) + item.size() > budget) {
        ++findings_cut;
        continue;
      }
      if (!headed) out += heading;
      headed = true;
      out += item;
    }
    if (headed) out += "\n";
  }
  std::string details =
      "<details><summary>Memory per GPU</summary>\n" + breakdowns + "\n</details>\n";
  const bool breakdowns_cut = !breakdowns.empty() && out.size() + details.size() > budget;
  if (!breakdowns.empty() && !breakdowns_cut) out += details;
  if (rows_cut + findings_cut > 0 || breakdowns_cut) {
    std::string cut;
    if (rows_cut > 0) cut += fmt::format("{} verdict row{}", rows_cut, rows_cut == 1 ? "" : "s");
    if (findings_cut > 0)
      cut += fmt::format("{}{} finding{}", cut.empty() ? "" : ", ", findings_cut,
                         findings_cut == 1 ? "" : "s");
    if (breakdowns_cut) cut += std::string(cut.empty() ? "" : ", ") + "the memory breakdowns";
    out += fmt::format(
        "\n_Not shown: {}. A GitHub comment holds at most 65,536 characters; `gpulint lint "
        "--format text` (or sarif, for code scanning) lists everything._\n",
        cut);
  }
  return out;
}

}  // namespace gpulint
