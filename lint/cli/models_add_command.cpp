// `gpulint models add PATH`: declares a model the catalog lacks from its own config.json, as a
// sourced [[model]] table in the team's gpulint.toml, so that every script naming it (by the
// folder's name or --id) resolves without the folder being present (CI has no checkpoints).
//
// The table holds the keys gpulint reads, not the whole config; it is read back before anything
// is written and must describe the same model. The file is written as --write writes scripts:
// atomically, refused when it changed meanwhile, never outside the working tree.
#include <fmt/format.h>
#include <sys/stat.h>

#include <filesystem>
#include <optional>

#include "estimator/param_count.h"
#include "lint/catalog/checkpoint_size.h"
#include "lint/catalog/model_config.h"
#include "lint/cli/cli.h"
#include "lint/cli/commands.h"
#include "lint/cli/options.h"
#include "lint/config/project_config.h"
#include "lint/util/read_file.h"
#include "tuner/safe_write.h"

namespace gpulint {
namespace fs = std::filesystem;
namespace {

int Fail(const std::string& message) {
  fmt::print(stderr, "gpulint: error: {}\n", message);
  return kExitUsage;
}

bool IsPyproject(const std::string& path) { return fs::path(path).filename() == "pyproject.toml"; }

}  // namespace

int RunModelsAddCommand(const Args& args) {
  auto parsed = ParseModelsAddOptions(args);
  if (!parsed.options) return parsed.exit_code;
  const ModelsAddOptions& options = *parsed.options;

  // The description: PATH/config.json or PATH itself.
  std::string config_json = options.path;
  struct stat info;
  if (stat(config_json.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
    config_json = (fs::path(config_json) / "config.json").string();
  std::string json_text;
  if (ReadStatus status = ReadRegularFile(config_json, &json_text); status != ReadStatus::kOk)
    return Fail(config_json + " " + ReadStatusText(status));

  // The name scripts use: --id, else the model folder's name (what a script writes as
  // /models/NAME resolves to it by its last path component).
  std::error_code ec;
  fs::path absolute = fs::absolute(config_json, ec).lexically_normal();
  std::string id = options.id;
  if (id.empty()) id = absolute.parent_path().filename().string();
  if (id.empty() || id.find_first_of("\n\r") != std::string::npos)
    return Fail(fmt::format("cannot name the model of {}: give --id NAME", config_json));

  std::string target = options.config;
  if (target.empty()) target = FindProjectConfig(".");
  if (target.empty()) target = "gpulint.toml";
  const bool exists = fs::symlink_status(target, ec).type() != fs::file_type::not_found;

  std::vector<TableHeaderValue> header = {
      {"hf_id", id},
      {"source", fmt::format("config.json: {} (gpulint models add)", absolute.string())},
      {"confidence", "high"}};
  // Safetensors headers beside the config count the parameters exactly, and check the config.
  std::string problem, mismatch;
  std::optional<CheckpointSize> stored =
      ReadCheckpointSize(absolute.parent_path().string(), &problem);
  if (stored && stored->Unquantized()) {
    header.emplace_back("params_total", static_cast<int64_t>(stored->elements));
    header.emplace_back("params_total_source", stored->source);
  }
  std::string table, error;
  if (!ModelTableFromConfigJson(json_text, config_json, header,
                                IsPyproject(target) ? "tool.gpulint.model" : "model", &table,
                                &error))
    return Fail(error);
  if (!problem.empty()) fmt::print(stderr, "gpulint: warning: {}\n", problem);
  if (stored) {
    ModelEntry entry;
    if (ParseModelConfigJson(json_text, config_json, &entry, &error))
      mismatch = CompareCheckpoint(*stored, entry.arch);
    if (!mismatch.empty()) fmt::print(stderr, "gpulint: warning: {}\n", mismatch);
  }
  if (options.print) {
    fmt::print("{}", table);
    return kExitClean;
  }

  std::string old_text;
  if (exists) {
    if (ReadStatus status = ReadRegularFile(target, &old_text); status != ReadStatus::kOk)
      return Fail(target + " " + ReadStatusText(status));
    ProjectConfig old_config;
    if (!ParseProjectConfig(old_text, target, &old_config, &error)) return Fail(error);
    for (const ModelEntry& model : old_config.models)
      if (model.hf_id == id)
        return Fail(fmt::format("a model '{}' is already declared (give --id another name): {}",
                                id, target));
  }
  std::string new_text = old_text;
  if (!new_text.empty() && new_text.back() != '\n') new_text += '\n';
  if (!new_text.empty()) new_text += '\n';
  new_text += table;
  // The whole file must still load, with the new model in it.
  ProjectConfig new_config;
  if (!ParseProjectConfig(new_text, target, &new_config, &error))
    return Fail(fmt::format("adding the table would break {}: {}", target, error));

  WritePolicy policy;
  policy.roots = WriteRootsFor({target});
  bool written = exists ? WriteFileSafely(target, old_text, new_text, policy, &error)
                        : WriteFileAtomically(target, new_text, &error);
  if (!written) return Fail(error);
  const ModelEntry& added = new_config.models.back();
  fmt::print("gpulint: declared '{}' ({}, {:.2f}B parameters) from {}: {}\n", id,
             added.arch.model_type, est::CountParams(added.arch).Total() / 1e9, config_json,
             target);
  return kExitClean;
}

}  // namespace gpulint
