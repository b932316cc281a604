#include "lint/report/reporter.h"

#include <map>
#include <unordered_map>

#include "lint/core/fingerprint.h"
#include "lint/report/safe_text.h"

namespace gpulint {

std::string RenderText(const ReportInput& input);
std::string RenderConcise(const ReportInput& input);
std::string RenderTextFile(const ReportInput& input, const ReportFile& file);
std::string RenderConciseFile(const ReportInput& input, const ReportFile& file);
std::string RenderTextSummary(const ReportInput& input);
std::string RenderJson(const ReportInput& input);
std::string RenderJsonLines(const ReportInput& input);
std::string RenderSarif(const ReportInput& input);
std::string RenderGithub(const ReportInput& input);
std::string RenderRdjson(const ReportInput& input);
std::string RenderRdjsonLines(const ReportInput& input);
std::string RenderGitlab(const ReportInput& input);
std::string RenderMarkdown(const ReportInput& input);
std::string RenderCheckstyle(const ReportInput& input);
std::string RenderJunit(const ReportInput& input);

std::vector<std::string> Fingerprints(const ReportInput& input) {
  std::vector<std::string> out;
  std::map<std::string, int> seen;
  for (const ReportFile& file : input.files)
    for (const Finding& f : file.findings) {
      std::string line = input.LineText(f.span.path, f.span.line);
      int occurrence = seen[f.span.path + "|" + Fingerprint(f.rule, line)]++;
      out.push_back(Fingerprint(f.rule, line, occurrence));
    }
  return out;
}

std::string XmlEscape(const std::string& text) {
  std::string out;
  for (char c : ValidUtf8(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\n':
        out += "&#10;";
        break;
      default:
        // Control characters are not allowed in XML 1.0.
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7F)
          out += "?";
        else
          out += c;
    }
  }
  return out;
}

struct ReportInput::SourceIndex {
  std::unordered_map<std::string, const std::string*> text_by_path;
};

namespace {

std::string LineOfText(const std::string& text, int line) {
  size_t start = 0;
  for (int l = 1; l < line; ++l) {
    start = text.find('\n', start);
    if (start == std::string::npos) return "";
    ++start;
  }
  size_t end = text.find('\n', start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

}  // namespace

std::string ReportInput::LineText(const ReportFile& file, const std::string& path, int line) const {
  if (file.sources)
    if (int own = file.sources->Find(path); own >= 0)
      return LineOfText(file.sources->text(own), line);
  return LineText(path, line);
}

std::string ReportInput::LineText(const std::string& path, int line) const {
  if (!source_index_) {
    auto index = std::make_shared<SourceIndex>();
    for (const ReportFile& file : files) {
      if (!file.sources) continue;
      const SourceMap& sources = *file.sources;
      for (int i = 0; i < sources.size(); ++i)  // the first file that read a path answers
        index->text_by_path.emplace(sources.path(i), &sources.text(i));
    }
    source_index_ = std::move(index);
  }
  auto found = source_index_->text_by_path.find(path);
  if (found == source_index_->text_by_path.end()) return "";
  return LineOfText(*found->second, line);
}

int ReportInput::Count(Severity severity) const {
  int count = 0;
  for (const ReportFile& file : files)
    for (const Finding& finding : file.findings) count += finding.severity == severity ? 1 : 0;
  return count;
}

const std::vector<ReporterEntry>& Reporters() {
  static const std::vector<ReporterEntry> reporters = {
      {"text", RenderText, "compiler style with the source line and a caret (default)", false,
       false, RenderTextFile, RenderTextSummary},
      {"concise", RenderConcise, "one line per finding", false, false, RenderConciseFile,
       RenderTextSummary},
      {"json", RenderJson, "the JSON of architecture.md"},
      {"jsonl", RenderJsonLines, "one JSON object per finding"},
      {"sarif", RenderSarif, "SARIF 2.1.0 for GitHub code scanning", true},
      {"github", RenderGithub, "GitHub Actions workflow commands (annotations)"},
      {"rdjson", RenderRdjson, "reviewdog diagnostic format"},
      {"rdjsonl", RenderRdjsonLines, "reviewdog diagnostics, one per line"},
      {"gitlab", RenderGitlab, "GitLab Code Quality report"},
      {"markdown", RenderMarkdown, "a pull-request comment: verdicts, findings, breakdowns", false,
       true},
      {"checkstyle", RenderCheckstyle, "Checkstyle XML"},
      {"junit", RenderJunit, "JUnit XML"},
  };
  return reporters;
}

const ReporterEntry* FindReporter(const std::string& name) {
  for (const ReporterEntry& entry : Reporters())
    if (name == entry.name) return &entry;
  return nullptr;
}

}  // namespace gpulint
