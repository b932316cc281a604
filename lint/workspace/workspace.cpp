#include "lint/workspace/workspace.h"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <iterator>
#include <sstream>

#include "estimator/units.h"
#include "lint/reader/version_pins.h"
#include "lint/util/background.h"
#include "lint/util/paths.h"
#include "lint/util/read_file.h"
#include "lint/util/strings.h"
#include "lint/workspace/file_walker.h"
#include "lint/workspace/repository_pins.h"

namespace gpulint {
namespace fs = std::filesystem;

Workspace::Workspace(const InputOptions& options)
    : options_(options),
      // The flag maps parse while this thread reads the catalog: start-up time is what a
      // pre-commit hook feels (bench/speed).
      maps_loading_(StartInBackground([] { return std::make_unique<FrameworkMaps>(); })) {}

const std::string& Workspace::WorkingDir() const {
  std::call_once(working_dir_once_, [this] {
    std::error_code ec;
    fs::path dir = fs::current_path(ec);
    if (!ec) working_dir_ = dir.string();
  });
  return working_dir_;
}

Workspace::~Workspace() {
  if (maps_loading_.valid()) maps_loading_.wait();
}

FrameworkMaps& Workspace::MutableMaps() const {
  if (!maps_) maps_ = maps_loading_.get();
  return *maps_;
}

const FrameworkMaps& Workspace::maps() const {
  return MutableMaps();
}

bool Workspace::Absorb(const ProjectConfig& config, std::string* error) {
  for (const std::string& warning : config.warnings)
    if (std::find(warnings_.begin(), warnings_.end(), warning) == warnings_.end())
      warnings_.push_back(warning);
  for (const std::string& map : config.framework_maps)
    if (!MutableMaps().AddFile(map, error)) return false;
  const std::vector<std::string> packages = MutableMaps().Packages();
  for (const auto& [name, where] : config.versions_where) {
    if (IsVersionedEngine(name) ||
        std::find(packages.begin(), packages.end(), name) != packages.end())
      continue;
    std::string warning = fmt::format(
        "'versions.{}' has no effect: gpulint models the versions of vllm, sglang and {}: {}",
        name, Join(packages, ", "), where);
    if (std::find(warnings_.begin(), warnings_.end(), warning) == warnings_.end())
      warnings_.push_back(warning);
  }
  return catalog_.AddUserEntries(config, error);
}

bool Workspace::Init(std::string* error) {
  for (const std::string& assignment : options_.env) {
    size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0) {
      *error = fmt::format("--env takes NAME=VALUE, not '{}': gpulint --env", assignment);
      return false;
    }
    env_[assignment.substr(0, eq)] = assignment.substr(eq + 1);
  }
  if (options_.isolated || options_.config.empty()) return true;
  explicit_config_ = std::make_unique<ProjectConfig>();
  if (!LoadProjectConfig(options_.config, explicit_config_.get(), error)) return false;
  return Absorb(*explicit_config_, error);
}

const ProjectConfig* Workspace::ConfigFor(const std::string& path, std::string* error) {
  if (options_.isolated) return &empty_config_;
  if (explicit_config_) return explicit_config_.get();
  std::lock_guard<std::mutex> lock(config_mutex_);
  std::string dir = fs::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  auto cached = config_path_by_dir_.find(dir);
  if (cached == config_path_by_dir_.end())
    cached = config_path_by_dir_.emplace(dir, FindProjectConfig(dir)).first;
  const std::string& config_path = cached->second;
  if (config_path.empty()) return &empty_config_;
  auto it = configs_by_path_.find(config_path);
  if (it != configs_by_path_.end()) return it->second.get();
  auto config = std::make_unique<ProjectConfig>();
  if (!LoadProjectConfig(config_path, config.get(), error) || !Absorb(*config, error))
    return nullptr;
  const ProjectConfig* result = config.get();
  configs_by_path_[config_path] = std::move(config);
  return result;
}

std::string Workspace::DefaultGpu(const std::string& path, std::string* error) {
  if (!options_.gpu.empty()) return options_.gpu;
  const ProjectConfig* config = ConfigFor(path, error);
  return config && config->gpu ? *config->gpu : "";
}

bool ReadInput(LoadedFile* file, std::string* error) {
  if (file->read) return true;
  if (ReadStatus status = ReadRegularFile(file->path, &file->text); status != ReadStatus::kOk) {
    *error = fmt::format("{} {}", file->path, ReadStatusText(status));
    return false;
  }
  file->read = true;
  return true;
}

bool Workspace::LoadInputs(std::vector<LoadedFile>* files, std::string* error) {
  size_t first = files->size();
  if (!ListInputs(files, error)) return false;
  for (size_t i = first; i < files->size(); ++i)
    if (!ReadInput(&(*files)[i], error)) return false;
  return true;
}

bool Workspace::ListInputs(std::vector<LoadedFile>* files, std::string* error) {
  if (options_.paths.empty()) {
    *error = "no input: give files or folders, or '-' for stdin";
    return false;
  }
  for (const std::string& path : options_.paths) {
    if (path == "-") {
      LoadedFile file;
      file.path = options_.stdin_filename.empty()
                      ? "<stdin>"
                      : ReportPath(options_.stdin_filename, WorkingDir());
      if (ReadStatus status = ReadStdin(&file.text); status != ReadStatus::kOk) {
        *error = fmt::format("standard input {}", ReadStatusText(status));
        return false;
      }
      file.from_stdin = true;
      files->push_back(std::move(file));
      continue;
    }
    std::vector<std::string> found;
    std::vector<std::string> exclude, include;
    std::string config_error;
    if (const ProjectConfig* config = ConfigFor(path, &config_error)) {
      exclude = config->exclude;
      include = config->include;
    } else {
      *error = config_error;
      return false;
    }
    if (!CollectFiles(path, exclude, include, &found, error)) return false;
    // Named as reports name them ("./x.sh" is "x.sh"): the readers join sourced files' paths to
    // this one, so every path a finding carries comes out the same way.
    for (const std::string& name : found)
      files->push_back({ReportPath(name, WorkingDir()), "", false, false});
  }
  return true;
}

void Workspace::CacheReferencedFiles() {
  referenced_files_ = std::make_unique<FileCache>(FileSystemReader());
}

std::map<std::string, PinnedVersion> Workspace::PinnedVersions(const std::string& dir,
                                                               const ProjectConfig* config) {
  std::map<std::string, PinnedVersion> pinned;
  {
    std::lock_guard<std::mutex> lock(pins_mutex_);
    auto it = repository_pins_by_dir_.find(dir);
    if (it == repository_pins_by_dir_.end()) {
      std::map<std::string, std::vector<RepositoryPin>> by_engine;
      for (RepositoryPin& pin : FindRepositoryPins(dir, maps().Packages()))
        by_engine[pin.package].push_back(pin);
      std::map<std::string, PinnedVersion> found;
      for (const auto& [engine, pins] : by_engine) {
        std::vector<std::string> specs;
        for (const RepositoryPin& pin : pins) specs.push_back(pin.spec);
        std::string joined;
        if (!JoinPins(specs, &joined)) continue;
        // Named as the linted paths are: relative to the working directory when under it.
        std::string where =
            fmt::format("{}:{}", ReportPath(pins[0].file, WorkingDir()), pins[0].line);
        if (pins.size() > 1) where += fmt::format(" and {} more", pins.size() - 1);
        found[engine] = {joined, where};
      }
      it = repository_pins_by_dir_.emplace(dir, std::move(found)).first;
    }
    pinned = it->second;
  }
  if (config)
    for (const auto& [engine, spec] : config->versions)
      pinned[engine] = {
          spec, fmt::format("{} [versions]", config->path.empty() ? "gpulint.toml" : config->path)};
  return pinned;
}

ReadResult Workspace::Read(const LoadedFile& file, SourceMap* sources, std::string* error) {
  const ProjectConfig* config = ConfigFor(file.path, error);
  ReadOptions read_options;
  if (config) read_options.env = config->env;
  for (const auto& [name, value] : env_) read_options.env[name] = value;
  // stdin without a real file name has no folder to read sourced files from.
  if (!file.from_stdin || !options_.stdin_filename.empty()) {
    read_options.read_file = FileSystemReader();
    if (FileCache* cache = referenced_files_.get())
      read_options.read_file = [cache](const std::string& path, std::string* text) {
        return cache->Read(path, text);
      };
  }
  if (!file.from_stdin || !options_.stdin_filename.empty())
    read_options.pinned_versions =
        PinnedVersions(fs::path(file.path).parent_path().string(), config);
  read_options.gpu_override = options_.gpu;
  if (config && config->gpu) read_options.gpu_default = *config->gpu;
  read_options.parse_cache = &parse_cache_;
  read_options.gpu_facts = [this](const std::string& name) -> std::optional<GpuFacts> {
    GpuResolution resolution = catalog_.ResolveGpu(name);
    if (!resolution.spec) return std::nullopt;
    return GpuFacts{resolution.spec->name, est::BytesToGib(resolution.spec->total_bytes)};
  };
  return ReadScript(file.path, file.text, maps(), read_options, sources);
}

}  // namespace gpulint
