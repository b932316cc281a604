#include "lint/report/reporter.h"

namespace gpulint {

std::string RenderText(const ReportInput& input);
std::string RenderConcise(const ReportInput& input);
std::string RenderJson(const ReportInput& input);
std::string RenderJsonLines(const ReportInput& input);

std::string ReportInput::LineText(const std::string& path, int line) const {
  for (const ReportFile& file : files) {
    if (!file.analysis || !file.analysis->sources) continue;
    const SourceMap& sources = *file.analysis->sources;
    int index = sources.Find(path);
    if (index < 0) continue;
    const std::string& text = sources.text(index);
    size_t start = 0;
    for (int l = 1; l < line; ++l) {
      start = text.find('\n', start);
      if (start == std::string::npos) return "";
      ++start;
    }
    size_t end = text.find('\n', start);
    return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
  }
  return "";
}

int ReportInput::Count(Severity severity) const {
  int count = 0;
  for (const ReportFile& file : files)
    for (const Finding& finding : file.findings) count += finding.severity == severity ? 1 : 0;
  return count;
}

const std::vector<ReporterEntry>& Reporters() {
  static const std::vector<ReporterEntry> reporters = {
      {"text", RenderText, "compiler style with the source line and a caret (default)"},
      {"concise", RenderConcise, "one line per finding"},
      {"json", RenderJson, "the JSON of architecture.md"},
      {"jsonl", RenderJsonLines, "one JSON object per finding"},
  };
  return reporters;
}

const ReporterEntry* FindReporter(const std::string& name) {
  for (const ReporterEntry& entry : Reporters())
    if (name == entry.name) return &entry;
  return nullptr;
}

}  // namespace gpulint
