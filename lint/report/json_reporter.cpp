// json: {"version","files":[{"path","findings":[...]}],"summary":{...}} with keys in a fixed order.
// jsonl: one object per finding (with its path), for streaming consumers.
#include <nlohmann/json.hpp>

#include "lint/report/json_version.h"
#include "lint/report/reporter.h"

namespace gpulint {
namespace {

using Json = nlohmann::ordered_json;

Json FindingJson(const Finding& f) {
  Json j;
  j["rule"] = f.rule;
  j["name"] = f.name;
  j["severity"] = SeverityName(f.severity);
  j["message"] = f.message;
  j["url"] = f.url;
  j["path"] = f.span.path;
  j["line"] = f.span.line;
  j["col"] = f.span.col;
  // End is exclusive; a span never crosses lines except heredoc values (then end_line differs).
  j["end_line"] = f.span.line;
  j["end_col"] = f.span.col + static_cast<int>(f.span.length);
  if (!f.fixes.empty()) {
    Json edits = Json::array();
    for (const Edit& e : f.fixes.front().edits)
      edits.push_back({{"path", e.span.path},
                       {"line", e.span.line},
                       {"col", e.span.col},
                       {"end_line", e.span.line},
                       {"end_col", e.span.col + static_cast<int>(e.span.length)},
                       {"text", e.text}});
    j["fix"] = {{"description", f.fixes.front().description},
                {"safe", f.fixes.front().safe},
                {"edits", edits}};
  } else {
    j["fix"] = nullptr;
  }
  return j;
}

}  // namespace

std::string RenderJson(const ReportInput& input) {
  Json out;
  out["version"] = kJsonFormatVersion;
  out["files"] = Json::array();
  for (const ReportFile& file : input.files) {
    Json f;
    f["path"] = file.path;
    f["findings"] = Json::array();
    for (const Finding& finding : file.findings) f["findings"].push_back(FindingJson(finding));
    out["files"].push_back(f);
  }
  out["summary"] = {{"error", input.Count(Severity::kError)},
                    {"warning", input.Count(Severity::kWarning)},
                    {"info", input.Count(Severity::kInfo)}};
  return out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string RenderJsonLines(const ReportInput& input) {
  std::string out;
  for (const ReportFile& file : input.files)
    for (const Finding& finding : file.findings)
      out += FindingJson(finding).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
             "\n";
  return out;
}

}  // namespace gpulint
