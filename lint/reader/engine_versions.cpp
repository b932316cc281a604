#include "lint/reader/engine_versions.h"

#include <fmt/format.h>

#include "estimator/engine_version.h"

namespace gpulint {
namespace {

Setting VersionSetting(const std::string& spec, Origin origin, const std::string& via,
                       const SourceSpan& span) {
  Setting setting;
  setting.name = "engine_version";
  setting.value = Value::String(spec);
  setting.origin = origin;
  setting.via = via;
  setting.span = span;
  setting.not_editable_reason = "an engine's version is installed, not tuned";
  return setting;
}

}  // namespace

bool JoinPins(const std::vector<std::string>& specs, std::string* joined) {
  bool any = false;
  est::VersionRange all;
  for (const std::string& spec : specs) {
    est::VersionRange range;
    if (!est::ParseVersionRange(spec, &range)) continue;
    if (!any) {
      all = range;
    } else {
      if (range.low < all.low) all.low = range.low;
      if (all.high < range.high) all.high = range.high;
    }
    any = true;
  }
  if (!any) return false;
  *joined = all.ToSpec();
  return true;
}

void ResolveEngineVersion(const std::map<std::string, std::string>& directives,
                          const std::map<std::string, SourceSpan>& directive_spans,
                          const std::vector<ScriptPin>& script_pins,
                          const std::map<std::string, PinnedVersion>& pinned,
                          Workload* workload) {
  const Setting* engine_setting = workload->Find("engine");
  if (!engine_setting || engine_setting->value.kind != Value::Kind::kString) return;
  const std::string engine = engine_setting->value.text;
  if (!IsVersionedEngine(engine)) return;
  const Setting* current = workload->Find("engine_version");
  if (current && current->value.kind != Value::Kind::kNone &&
      current->origin != Origin::kFrameworkDefault)
    return;  // the script, --set or `# gpulint: engine_version=` states it

  std::string readable;
  if (auto it = directives.find(engine);
      it != directives.end() && JoinPins({it->second}, &readable)) {
    auto span = directive_spans.find(engine);
    workload->settings["engine_version"] =
        VersionSetting(it->second, Origin::kDirective, fmt::format("# gpulint: {}=", engine),
                       span == directive_spans.end() ? SourceSpan{} : span->second);
    return;
  }
  std::vector<std::string> specs;
  SourceSpan first;
  for (const ScriptPin& p : script_pins)
    if (p.pin.package == engine) {
      if (specs.empty()) first = p.span;
      specs.push_back(p.pin.spec);
    }
  std::string joined;
  if (JoinPins(specs, &joined)) {
    workload->settings["engine_version"] = VersionSetting(
        joined, Origin::kLiteral,
        first.valid() ? fmt::format("the script's pin at line {}", first.line) : "the script's pin",
        first);
    return;
  }
  if (auto it = pinned.find(engine); it != pinned.end()) {
    workload->settings["engine_version"] =
        VersionSetting(it->second.spec, Origin::kConfigFile, it->second.where, SourceSpan{});
  }
}

std::map<std::string, std::string> PackageVersions(
    const std::vector<std::string>& packages, const std::map<std::string, std::string>& directives,
    const std::vector<ScriptPin>& script_pins, const std::map<std::string, PinnedVersion>& pinned) {
  std::map<std::string, std::string> versions;
  for (const std::string& package : packages) {
    std::string joined;
    if (auto it = directives.find(package); it != directives.end()) {
      versions[package] = JoinPins({it->second}, &joined) ? joined : "";
      continue;
    }
    std::vector<std::string> specs;
    for (const ScriptPin& p : script_pins)
      if (p.pin.package == package) specs.push_back(p.pin.spec);
    if (JoinPins(specs, &joined)) {
      versions[package] = joined;
      continue;
    }
    if (auto it = pinned.find(package); it != pinned.end() && JoinPins({it->second.spec}, &joined))
      versions[package] = joined;
  }
  return versions;
}

}  // namespace gpulint
