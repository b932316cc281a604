// rdjson and rdjsonl for reviewdog (its Diagnostic format): 1-based lines, 1-based UTF-8 byte
// columns with the end exclusive, fixes as `suggestions`.
#include <nlohmann/json.hpp>

#include "lint/report/reporter.h"

namespace gpulint {
namespace {

using Json = nlohmann::ordered_json;

const char* LevelOf(Severity severity) {
  switch (severity) {
    case Severity::kError: return "ERROR";
    case Severity::kWarning: return "WARNING";
    case Severity::kInfo: return "INFO";
  }
  return "INFO";
}

Json Range(const SourceSpan& span) {
  return {{"start", {{"line", span.line}, {"column", span.col}}},
          {"end", {{"line", span.line}, {"column", span.col + static_cast<int>(span.length)}}}};
}

Json Diagnostic(const Finding& f) {
  Json d = {{"message", f.message},
            {"location", {{"path", f.span.path}, {"range", Range(f.span)}}},
            {"severity", LevelOf(f.severity)},
            {"code", {{"value", f.rule}, {"url", f.url}}}};
  if (!f.fixes.empty()) {
    Json suggestions = Json::array();
    for (const Edit& edit : f.fixes.front().edits)
      if (edit.span.path == f.span.path)  // reviewdog suggests within the finding's file
        suggestions.push_back({{"range", Range(edit.span)}, {"text", edit.text}});
    d["suggestions"] = suggestions;
  }
  return d;
}

}  // namespace

std::string RenderRdjson(const ReportInput& input) {
  Json diagnostics = Json::array();
  for (const ReportFile& file : input.files)
    for (const Finding& f : file.findings) diagnostics.push_back(Diagnostic(f));
  Json out = {{"source", {{"name", "gpulint"}, {"url", "https://github.com/gpulint/gpulint"}}},
              {"diagnostics", diagnostics}};
  return out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string RenderRdjsonLines(const ReportInput& input) {
  std::string out;
  for (const ReportFile& file : input.files)
    for (const Finding& f : file.findings)
      out += Diagnostic(f).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  return out;
}

}  // namespace gpulint
