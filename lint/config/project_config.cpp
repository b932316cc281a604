#include "lint/config/project_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include <toml++/toml.h>
#include <filesystem>

#include "estimator/engine_version.h"
#include "lint/catalog/model_config.h"
#include "lint/core/setting_types.h"
#include "lint/util/toml_parse.h"
#include "lint/util/read_file.h"
#include "lint/util/search_ceiling.h"

namespace gpulint {
namespace fs = std::filesystem;
namespace {

std::string Where(const std::string& path, const toml::node& node) {
  return fmt::format("{}:{}:{}", path, node.source().begin.line, node.source().begin.column);
}

bool ReadStrings(const toml::table& table, const char* key, const std::string& path,
                 std::vector<std::string>* out, std::string* error) {
  const toml::node* node = table.get(key);
  if (!node) return true;
  const toml::array* array = node->as_array();
  if (!array) {
    if (auto single = node->value<std::string>()) {
      out->push_back(*single);
      return true;
    }
    *error = fmt::format("'{}' must be a list of strings: {}", key, Where(path, *node));
    return false;
  }
  for (const toml::node& element : *array) {
    auto value = element.value<std::string>();
    if (!value) {
      *error = fmt::format("'{}' must be a list of strings: {}", key, Where(path, element));
      return false;
    }
    out->push_back(*value);
  }
  return true;
}

}  // namespace

std::string FindProjectConfig(const std::string& start_dir) {
  std::error_code ec;
  fs::path dir = fs::absolute(start_dir.empty() ? "." : start_dir, ec).lexically_normal();
  const fs::path last = SearchCeiling(dir);
  while (true) {
    for (const char* name : {"gpulint.toml", ".gpulint.toml"}) {
      fs::path candidate = dir / name;
      // Any file by that name is the project's configuration: one that is not a regular file
      // (a link to /dev/zero, a FIFO) is refused when loaded, not skipped in silence.
      if (fs::symlink_status(candidate, ec).type() != fs::file_type::not_found && !ec)
        return candidate.string();
    }
    fs::path pyproject = dir / "pyproject.toml";
    if (fs::is_regular_file(pyproject, ec)) {
      std::string text;
      if (ReadRegularFile(pyproject.string(), &text) == ReadStatus::kOk &&
          text.find("[tool.gpulint]") != std::string::npos)
        return pyproject.string();
    }
    if (dir == last || !dir.has_parent_path() || dir.parent_path() == dir) return "";
    dir = dir.parent_path();
  }
}

bool LoadProjectConfig(const std::string& path, ProjectConfig* config, std::string* error) {
  std::string text;
  if (ReadStatus status = ReadRegularFile(path, &text); status != ReadStatus::kOk) {
    config->path = path;
    config->text = std::move(text);
    *error = fmt::format("configuration {} {}", path, ReadStatusText(status));
    return false;
  }
  return ParseProjectConfig(std::move(text), path, config, error);
}

bool ParseProjectConfig(std::string file_text, const std::string& path, ProjectConfig* config,
                        std::string* error) {
  config->path = path;
  config->text = std::move(file_text);
  toml::table document;
  if (!ParseToml(config->text, path, &document, error)) return false;
  const toml::table* table = &document;
  if (fs::path(path).filename() == "pyproject.toml") {
    table = document["tool"]["gpulint"].as_table();
    if (!table) return true;
  }
  const fs::path folder = fs::path(path).parent_path();
  for (const auto& [key_name, node] : *table) {
    std::string key(key_name.str());
    if ((key == "gpu" && node.is_array_of_tables()) || key == "gpu_type") {
      // User GPUs: read by GpuCatalog::AddFromToml from `text`.
    } else if (key == "gpu") {
      auto value = node.value<std::string>();
      if (!value) {
        *error = fmt::format("'gpu' must be a string such as \"H100-80GB\": {}", Where(path, node));
        return false;
      }
      config->gpu = *value;
    } else if (key == "headroom") {
      auto value = node.value<double>();
      if (!value || !IsValidHeadroom(*value)) {
        *error = fmt::format("'headroom' must be a number in [0, 0.9): {}", Where(path, node));
        return false;
      }
      config->headroom = *value;
    } else if (key == "select" || key == "ignore" || key == "exclude" || key == "include" ||
               key == "rules" || key == "frameworks") {
      std::vector<std::string>* out = key == "select"    ? &config->select
                                      : key == "ignore"  ? &config->ignore
                                      : key == "exclude" ? &config->exclude
                                      : key == "include" ? &config->include
                                      : key == "rules"   ? &config->rule_packs
                                                         : &config->framework_maps;
      if (!ReadStrings(*table, key.c_str(), path, out, error)) return false;
      if (key == "rules" || key == "frameworks")
        for (std::string& file : *out) file = (folder / file).lexically_normal().string();
    } else if (key == "severity" || key == "env") {
      const toml::table* values = node.as_table();
      if (!values) {
        *error = fmt::format("'{}' must be a table: {}", key, Where(path, node));
        return false;
      }
      for (const auto& [name, value] : *values) {
        auto text = value.value<std::string>();
        if (!text) {
          if (auto number = value.value<double>()) text = fmt::format("{}", *number);
        }
        if (!text) {
          *error = fmt::format("'{}.{}' must be a string: {}", key, name.str(), Where(path, value));
          return false;
        }
        (key == "severity" ? config->severity : config->env)[std::string(name.str())] = *text;
      }
    } else if (key == "versions") {
      // [versions] vllm = "0.6.3", trl = "0.23": the engine and framework releases the team runs.
      const toml::table* values = node.as_table();
      if (!values) {
        *error = fmt::format("'versions' must be a table: {}", Where(path, node));
        return false;
      }
      for (const auto& [name, value] : *values) {
        auto text = value.value<std::string>();
        est::VersionRange range;
        if (!text || !est::ParseVersionRange(*text, &range)) {
          *error = fmt::format("'versions.{}' must be a version such as \"0.6.3\" or a pin such "
                               "as \">=0.8.5,<0.9\": {}",
                               name.str(), Where(path, value));
          return false;
        }
        config->versions[std::string(name.str())] = *text;
        config->versions_where[std::string(name.str())] = Where(path, value);
      }
    } else if (key == "generic") {
      // [generic] dtype = "bf16": the meaning of a team's own flags, checked as --set is.
      const toml::table* values = node.as_table();
      if (!values) {
        *error = fmt::format("'generic' must be a table: {}", Where(path, node));
        return false;
      }
      config->generic_where = Where(path, node);
      for (const auto& [name, value] : *values) {
        std::optional<std::string> text = value.value<std::string>();
        if (!text && value.is_boolean()) text = *value.value<bool>() ? "true" : "false";
        if (!text && value.is_number()) text = fmt::format("{}", *value.value<double>());
        const std::string problem =
            text ? ValueTextProblem(std::string(name.str()), *text) : "not a string";
        if (!problem.empty()) {
          *error = fmt::format("'generic.{}': {}: {}", name.str(), problem, Where(path, value));
          return false;
        }
        config->generic[std::string(name.str())] = *text;
      }
    } else if (key == "model") {
      // Parsed below from the whole text, with the catalog's reader.
    } else if (key == "gpus") {
      config->warnings.push_back(fmt::format(
          "'gpus' has no effect; declare GPUs as [[gpu_type]] tables: {}", Where(path, node)));
    } else {
      config->warnings.push_back(
          fmt::format("unknown key '{}' has no effect: {}", key, Where(path, node)));
    }
  }
  // In a pyproject.toml the tables are [[tool.gpulint.model]].
  const bool pyproject = table != &document;
  if (table->get("model") &&
      !ParseModelTables(config->text, path, &config->models, error,
                        pyproject ? "tool.gpulint.model" : "model"))
    return false;
  for (ModelEntry& model : config->models) model.origin = "gpulint.toml: " + path;
  return true;
}

}  // namespace gpulint
