// `gpulint parse`: what the reader makes of each script, with where every value is written.
#include <fmt/format.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "lint/cli/cli.h"
#include "lint/cli/commands.h"
#include "lint/cli/options.h"
#include "lint/report/json_version.h"
#include "lint/report/safe_text.h"
#include "lint/workspace/workspace.h"

namespace gpulint {
namespace {

using Json = nlohmann::ordered_json;

Json ValueJson(const Value& value) {
  switch (value.kind) {
    case Value::Kind::kNone:
      return nullptr;
    case Value::Kind::kNumber:
      // A whole number within long long's range is written as one; casting 1e60 (a fuzzed
      // --nproc_per_node) to an integer is undefined behaviour (clang's UBSan:
      // float-cast-overflow), so the range is checked first.
      if (value.number >= -9.2e18 && value.number <= 9.2e18 &&
          value.number == std::floor(value.number))
        return static_cast<long long>(value.number);
      return value.number;
    case Value::Kind::kBool:
      return value.boolean;
    case Value::Kind::kString:
      return value.text;
    case Value::Kind::kList:
      return value.list;
  }
  return nullptr;
}

Json SettingJson(const Setting& setting) {
  Json json;
  json["value"] = ValueJson(setting.value);
  json["line"] = setting.span.valid() ? Json(setting.span.line) : Json(nullptr);
  json["col"] = setting.span.valid() ? Json(setting.span.col) : Json(nullptr);
  json["origin"] = OriginName(setting.origin);
  if (setting.span.valid() && setting.span.path != "") json["file"] = setting.span.path;
  if (!setting.via.empty())
    json[setting.origin == Origin::kFrameworkDefault ? "source" : "via"] = setting.via;
  json["editable"] = setting.editable;
  if (setting.ambiguous) json["ambiguous"] = true;
  return json;
}

std::string Devices(const Workload& workload) {
  std::string out;
  for (int device : workload.devices) out += (out.empty() ? "" : ",") + std::to_string(device);
  return out;
}

Json FileJson(const RunConfig& config) {
  Json file;
  file["path"] = config.path;
  Json cluster;
  auto optional_setting = [](const std::optional<Setting>& setting) {
    return setting ? ValueJson(setting->value) : Json(nullptr);
  };
  cluster["gpu"] = optional_setting(config.cluster.gpu);
  cluster["gpus_per_node"] = optional_setting(config.cluster.gpus_per_node);
  cluster["nodes"] = optional_setting(config.cluster.nodes);
  file["cluster"] = cluster;
  Json workloads = Json::array();
  for (const Workload& workload : config.workloads) {
    Json w;
    w["role"] = workload.role;
    w["framework"] = workload.framework;
    const Setting* model = workload.Find("model");
    w["model"] = model ? ValueJson(model->value) : Json(nullptr);
    w["gpus"] = workload.gpus;
    w["devices"] = workload.devices;
    w["devices_assumed"] = workload.devices_assumed;
    w["line"] = workload.command_span.line;
    w["process"] = workload.process;
    w["concurrent_processes"] = workload.concurrent_processes;
    if (!workload.branch.empty()) w["branch"] = workload.branch;
    Json settings = Json::object();
    for (const auto& [name, setting] : workload.settings) settings[name] = SettingJson(setting);
    w["settings"] = settings;
    w["assumptions"] = workload.assumptions;
    workloads.push_back(w);
  }
  file["workloads"] = workloads;
  Json unresolved = Json::array();
  for (const Unresolved& u : config.unresolved)
    unresolved.push_back({{"name", u.name}, {"reason", u.reason}, {"line", u.span.line}});
  file["unresolved"] = unresolved;
  Json notes = Json::array();
  for (const ReaderNote& note : config.notes)
    notes.push_back({{"level", note.level == ReaderNote::Level::kInfo ? "info" : "warning"},
                     {"message", note.message},
                     {"line", note.span.line}});
  file["notes"] = notes;
  return file;
}

void PrintText(const RunConfig& config) {
  // Every value and path is the script's: printed as text, never as terminal control.
  std::string out;
  out += fmt::format("{}\n", config.path);
  std::string cluster;
  auto add = [&](const char* name, const std::optional<Setting>& setting) {
    if (setting)
      cluster +=
          fmt::format(" {}={} (line {})", name, setting->value.ToString(), setting->span.line);
  };
  add("gpu", config.cluster.gpu);
  add("gpus_per_node", config.cluster.gpus_per_node);
  add("nodes", config.cluster.nodes);
  if (!cluster.empty()) out += fmt::format("  cluster:{}\n", cluster);
  for (size_t i = 0; i < config.workloads.size(); ++i) {
    const Workload& w = config.workloads[i];
    const Setting* model = w.Find("model");
    out += fmt::format("  workload {}: {} ({}) model={} gpus={} devices={}{} line {}\n", i + 1,
                       w.role, w.framework, model ? model->value.ToString() : "?", w.gpus,
                       Devices(w), w.devices_assumed ? " (assumed)" : "", w.command_span.line);
    for (const auto& [name, setting] : w.settings) {
      std::string where = setting.span.valid() ? fmt::format("{}:{}:{}", setting.span.path,
                                                             setting.span.line, setting.span.col)
                                               : "-";
      out += fmt::format("    {:<24} {:<22} {:<18} {}{}\n", name, setting.value.ToString(),
                         OriginName(setting.origin), where,
                         setting.via.empty() ? "" : " via " + setting.via);
    }
  }
  for (const Unresolved& u : config.unresolved)
    out += fmt::format("  unresolved {} (line {}): {}\n", u.name, u.span.line, u.reason);
  for (const ReaderNote& note : config.notes)
    out += fmt::format("  note (line {}): {}\n", note.span.line, note.message);
  fmt::print("{}", Printable(out));
}

}  // namespace

int RunParseCommand(const Args& args) {
  auto parsed = ParseParseOptions(args);
  if (!parsed.options) return parsed.exit_code;
  Workspace workspace(*parsed.options);
  std::string error;
  std::vector<LoadedFile> files;
  if (!workspace.Init(&error) || !workspace.LoadInputs(&files, &error)) {
    fmt::print(stderr, "gpulint: error: {}\n", error);
    return kExitUsage;
  }
  Json output;
  output["version"] = kJsonFormatVersion;
  output["files"] = Json::array();
  int exit_code = kExitClean;
  for (const LoadedFile& file : files) {
    SourceMap sources;
    ReadResult result = workspace.Read(file, &sources, &error);
    if (!result.ok) {
      fmt::print(stderr, "gpulint: error: {}: {}\n", result.error, file.path);
      exit_code = kExitUsage;
      continue;
    }
    if (parsed.options->format == "json") {
      output["files"].push_back(FileJson(result.config));
    } else {
      PrintText(result.config);
    }
  }
  if (parsed.options->format == "json")
    fmt::print("{}\n", output.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  return exit_code;
}

}  // namespace gpulint
