// sarif: SARIF 2.1.0 as GitHub code scanning reads it: the rules with their docs, one result per
// finding with a full region and a fingerprint that ignores line numbers, fixes as replacements.
// Columns are Unicode code points (run.columnKind); gpulint's own columns count UTF-8 bytes.
#include <fmt/format.h>

#include <cctype>
#include <map>
#include <nlohmann/json.hpp>

#include "lint/report/reporter.h"
#include "lint/util/paths.h"

namespace gpulint {
namespace {

using Json = nlohmann::ordered_json;

const char* Level(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kInfo:
      return "note";
  }
  return "note";
}

constexpr const char* kRoot = "%SRCROOT%";

// A path as a URI reference: unreserved characters and '/' as they are, the rest
// percent-encoded (spaces, '#', '%', non-ASCII bytes).
std::string UriOf(const std::string& path) {
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~')
      out += static_cast<char>(c);
    else
      out += fmt::format("%{:02X}", c);
  }
  return out;
}

// 1-based code-point column of 1-based byte column `byte_col` in `line`.
int CodePointColumn(const std::string& line, int byte_col) {
  int column = 1;
  for (size_t i = 0; i + 1 < static_cast<size_t>(byte_col) && i < line.size(); ++i)
    if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++column;
  // Past the end of the line (an insertion at its end): count the rest as single columns.
  if (static_cast<size_t>(byte_col) > line.size() + 1)
    column += byte_col - static_cast<int>(line.size()) - 1;
  return column;
}

// Where a path's file is, for GitHub: a path inside the working folder relative to %SRCROOT%
// (GitHub resolves it against the checkout), one outside it ("/x", "../x") as an absolute file://
// URI, since a relative URI must not climb out of its base, nor start with '/' (SARIF1004).
Json ArtifactLocation(const ReportInput& input, const std::string& path) {
  const bool outside = path.starts_with('/') || path == ".." || path.starts_with("../");
  if (!outside) {
    if (input.working_dir.empty()) return {{"uri", UriOf(path)}};
    return {{"uri", UriOf(path)}, {"uriBaseId", kRoot}};
  }
  std::string absolute =
      path.starts_with('/') ? path : LexicallyNormal(JoinPath(input.working_dir, path));
  if (!absolute.starts_with('/')) return {{"uri", UriOf(path)}};  // no folder to anchor it to
  return {{"uri", "file://" + UriOf(absolute)}};
}

Json Region(const ReportInput& input, const SourceSpan& span) {
  std::string line = input.LineText(span.path, span.line);
  int start = CodePointColumn(line, span.col);
  int end = CodePointColumn(line, span.col + static_cast<int>(span.length));
  return {{"startLine", span.line},
          {"startColumn", start},
          {"endLine", span.line},
          {"endColumn", std::max(end, start)}};
}

Json RuleJson(const Rule& rule) {
  return {{"id", rule.id},
          {"name", rule.name},
          {"shortDescription", {{"text", rule.doc.what.empty() ? rule.name : rule.doc.what}}},
          {"fullDescription", {{"text", rule.doc.why.empty() ? rule.name : rule.doc.why}}},
          {"help", {{"text", RuleDocText(rule)}, {"markdown", RuleDocMarkdown(rule)}}},
          {"helpUri", RuleUrl(rule)},
          {"defaultConfiguration", {{"level", Level(rule.severity)}}},
          {"properties", {{"tags", Json::array({rule.category})}}}};
}

}  // namespace

std::string RenderSarif(const ReportInput& input) {
  Json rules = Json::array();
  std::map<std::string, int> rule_index;
  if (input.rules)
    for (const auto& rule : input.rules->rules()) {
      rule_index[rule->id] = static_cast<int>(rules.size());
      rules.push_back(RuleJson(*rule));
    }
  std::vector<std::string> fingerprints = Fingerprints(input);
  Json results = Json::array();
  size_t n = 0;
  for (const ReportFile& file : input.files)
    for (const Finding& f : file.findings) {
      Json result;
      result["ruleId"] = f.rule;
      if (auto it = rule_index.find(f.rule); it != rule_index.end())
        result["ruleIndex"] = it->second;
      result["level"] = Level(f.severity);
      result["message"] = {{"text", f.message}};
      result["locations"] =
          Json::array({{{"physicalLocation",
                         {{"artifactLocation", ArtifactLocation(input, f.span.path)},
                          {"region", Region(input, f.span)}}}}});
      result["partialFingerprints"] = {{"gpulintLineHash/v1", fingerprints[n++]}};
      if (!f.fixes.empty()) {
        Json fixes = Json::array();
        for (const Fix& fix : f.fixes) {
          std::map<std::string, Json> by_file;
          for (const Edit& edit : fix.edits) {
            Json& change = by_file[edit.span.path];
            if (change.is_null())
              change = {{"artifactLocation", ArtifactLocation(input, edit.span.path)},
                        {"replacements", Json::array()}};
            change["replacements"].push_back({{"deletedRegion", Region(input, edit.span)},
                                              {"insertedContent", {{"text", edit.text}}}});
          }
          Json changes = Json::array();
          for (auto& [path, change] : by_file) changes.push_back(change);
          fixes.push_back(
              {{"description", {{"text", fix.description}}}, {"artifactChanges", changes}});
        }
        result["fixes"] = fixes;
      }
      results.push_back(result);
    }
  Json run = {{"tool",
               {{"driver",
                 {{"name", "gpulint"},
                  {"version", input.version},
                  {"semanticVersion", input.version},
                  {"informationUri", "https://github.com/gpulint/gpulint"},
                  {"rules", rules}}}}},
              {"columnKind", "unicodeCodePoints"},
              {"results", results}};
  if (!input.working_dir.empty()) {
    std::string root = "file://" + UriOf(input.working_dir);
    if (!root.ends_with('/')) root += '/';
    run["originalUriBaseIds"] = {{kRoot, {{"uri", root}}}};
  }
  Json log = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", Json::array({run})}};
  return log.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace gpulint
