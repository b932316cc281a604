// One gpulint run's world: the options, the configuration closest to each file, the catalog and
// flag maps (with the project's additions), and the input files. The subcommands start here.
#pragma once

#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "lint/catalog/catalog.h"
#include "lint/cli/options.h"
#include "lint/config/project_config.h"
#include "lint/reader/framework_map.h"
#include "lint/reader/parse_cache.h"
#include "lint/reader/script_reader.h"
#include "lint/workspace/file_cache.h"

namespace gpulint {

struct LoadedFile {
  std::string path;  ///< as the user gave it (or found by walking a folder)
  std::string text;
  bool from_stdin = false;
  bool read = true;  ///< false: only listed (Workspace::ListInputs); ReadInput fills `text`
};

/// Reads a listed file's text (a no-op for one already read). False with "cannot read file: P".
bool ReadInput(LoadedFile* file, std::string* error);

class Workspace {
 public:
  explicit Workspace(const InputOptions& options);
  ~Workspace();
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  /// Loads --config (or nothing with --isolated). False with `error` for an invalid file.
  bool Init(std::string* error);
  /// Expands the paths into files and reads them; stdin for "-". False for unreadable input.
  bool LoadInputs(std::vector<LoadedFile>* files, std::string* error);
  /// Expands the paths into files without reading them (stdin is read): the lint threads read
  /// them with ReadInput, so that a large tree is not read on one thread first.
  bool ListInputs(std::vector<LoadedFile>* files, std::string* error);
  /// The configuration that applies to `path`: --config, else the closest gpulint.toml.
  /// Returns nullptr on an invalid configuration (error set).
  const ProjectConfig* ConfigFor(const std::string& path, std::string* error);
  /// Reads a file into a run configuration.
  ReadResult Read(const LoadedFile& file, SourceMap* sources, std::string* error);
  /// From now on, the files scripts refer to are read once per run (see FileCache). For
  /// commands that write nothing; `fix` re-reads what it changes.
  void CacheReferencedFiles();

  const Catalog& catalog() const { return catalog_; }
  /// --gpu, which beats every declaration ("" when not given).
  const std::string& gpu_override() const { return options_.gpu; }
  /// The flag maps; the built-in ones load on another thread from construction on.
  const FrameworkMaps& maps() const;
  /// Configuration warnings (unknown keys), each once.
  const std::vector<std::string>& warnings() const { return warnings_; }
  /// The working directory, absolute ("" when it cannot be read): reports name paths under it
  /// relative to it.
  const std::string& WorkingDir() const;
  /// The GPU name that applies to a file: --gpu, else its config's gpu ("" when none).
  std::string DefaultGpu(const std::string& path, std::string* error);

 private:
  bool Absorb(const ProjectConfig& config, std::string* error);
  /// The engine versions pinned for files in `dir`: gpulint.toml's [versions], else the
  /// repository's files (read once per folder).
  std::map<std::string, PinnedVersion> PinnedVersions(const std::string& dir,
                                                      const ProjectConfig* config);

  InputOptions options_;
  Catalog catalog_;
  FrameworkMaps& MutableMaps() const;
  std::mutex config_mutex_;  // ConfigFor runs on the lint threads (configs load before them)
  mutable std::future<std::unique_ptr<FrameworkMaps>> maps_loading_;
  mutable std::unique_ptr<FrameworkMaps> maps_;
  std::unique_ptr<ProjectConfig> explicit_config_;
  std::map<std::string, std::unique_ptr<ProjectConfig>> configs_by_path_;
  std::map<std::string, std::string> config_path_by_dir_;
  std::vector<std::string> warnings_;
  ProjectConfig empty_config_;
  std::map<std::string, std::string> env_;
  std::mutex pins_mutex_;
  std::map<std::string, std::map<std::string, PinnedVersion>> repository_pins_by_dir_;
  std::unique_ptr<FileCache> referenced_files_;  ///< null: read from disk each time
  mutable std::once_flag working_dir_once_;
  mutable std::string working_dir_;  ///< WorkingDir(), read once
  ParseCache parse_cache_;
};

}  // namespace gpulint
