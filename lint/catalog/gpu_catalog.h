// The GPU catalog (catalog/gpus.toml plus the user's [[gpu]] tables) and the resolution of GPU
// names as scripts, SLURM, nvidia-smi and people write them.
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "estimator/gpu_spec.h"

namespace gpulint {

struct GpuEntry {
  est::GpuSpec spec;
  std::vector<std::string> aliases;          ///< normalized (lower case, no ' ', '-', '_')
  std::vector<std::string> unsized_aliases;  ///< normalized names that omit the memory size
  std::string unsized_up_to;  ///< the largest variant those names may also mean ("A100-80GB")
  std::string confidence = "high";
  std::string source;
  double memory_gb = 0;                      ///< marketed size (decimal GB)
  bool memory_from_marketing = false;        ///< no nvidia-smi total: memory_gb is used
  std::vector<std::string> notes;
};

struct GpuResolution {
  std::optional<est::GpuSpec> spec;
  /// A name that does not say the memory size ("A100") resolves to the smaller variant in
  /// `spec`; this is the largest it may also mean, which the verdict must hold on too.
  std::optional<est::GpuSpec> largest_variant;
  std::vector<std::string> assumptions;
  std::string message;                   ///< why it did not resolve
  std::vector<std::string> suggestions;
};

class GpuCatalog {
 public:
  /// The built-in GPUs. Aborts only if the embedded catalog is broken (a build defect that the
  /// test suite catches).
  GpuCatalog();

  /// Adds [[gpu]] / [[gpu_type]] tables from user TOML text (gpulint.toml). Same fields as
  /// catalog/gpus.toml, with `name` and `memory_gib` or `smi_total_mib` required.
  bool AddFromToml(std::string_view toml_text, const std::string& where, std::string* error);

  /// Every GPU, in full.
  const std::vector<GpuEntry>& entries() const;

  /// Resolves a name. `cluster_default` is the GPU a gpulint.toml declares: an unsized name
  /// ("a100") resolves to it when it is a size of the same chip.
  GpuResolution Resolve(std::string_view name, std::string_view cluster_default = "") const;

  /// Normalizes a GPU name for matching: lower case without spaces, '-' and '_'.
  static std::string Normalize(std::string_view name);

 private:
  GpuResolution ResolveUncached(std::string_view name, std::string_view cluster_default) const;
  /// Entry `index` in full (built-in entries hold only their names until asked for).
  const GpuEntry& Full(size_t index) const;

  mutable std::vector<GpuEntry> entries_;
  mutable std::vector<std::string> pending_;  // a built-in entry's TOML until it is parsed
  mutable std::recursive_mutex mutex_;         // files are linted on several threads
  // Resolutions by "name\0cluster default": every script of a tree names the same few GPUs.
  // Cleared when entries are added.
  mutable std::unordered_map<std::string, GpuResolution> resolved_;
};

}  // namespace gpulint
