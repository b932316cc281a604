// Everything gpulint knows about models and GPUs in one run: the built-in catalog plus what the
// user's gpulint.toml adds.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "lint/catalog/gpu_catalog.h"
#include "lint/catalog/model_catalog.h"
#include "lint/catalog/model_resolver.h"

namespace gpulint {

struct ProjectConfig;

class Catalog {
 public:
  Catalog();
  ~Catalog();

  /// Adds the [[model]] and [[gpu]]/[[gpu_type]] tables of a project configuration.
  bool AddUserEntries(const ProjectConfig& config, std::string* error);

  const ModelCatalog& models() const { return models_; }
  const GpuCatalog& gpus() const { return gpus_; }

  ModelResolution ResolveModel(std::string_view reference, const ResolveContext& context) const;
  GpuResolution ResolveGpu(std::string_view name, std::string_view cluster_default = "") const {
    return gpus_.Resolve(name, cluster_default);
  }

 private:
  ModelCatalog models_;
  GpuCatalog gpus_;
  mutable std::unique_ptr<ModelResolver> resolver_;  // built on first use, after user entries
  mutable std::mutex resolve_mutex_;                  // files are linted on several threads
  // Answers already given in this run, by reference and context: the tuner asks again for
  // every what-if, and a corpus names the same few models over and over.
  mutable std::map<std::string, ModelResolution> resolved_;
};

}  // namespace gpulint
