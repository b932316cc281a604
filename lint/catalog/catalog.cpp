#include "lint/catalog/catalog.h"

#include "lint/config/project_config.h"

namespace gpulint {

Catalog::Catalog() = default;
Catalog::~Catalog() = default;

bool Catalog::AddUserEntries(const ProjectConfig& config, std::string* error) {
  for (const ModelEntry& model : config.models) models_.Add(model);
  if (!config.text.empty() && !gpus_.AddFromToml(config.text, config.path, error)) return false;
  std::lock_guard<std::mutex> lock(resolve_mutex_);
  resolver_.reset();
  resolved_.clear();
  return true;
}

ModelResolution Catalog::ResolveModel(std::string_view reference,
                                      const ResolveContext& context) const {
  std::string key(reference);
  key += '\0' + context.base_dir + (context.use_filesystem ? "\0fs" : "\0nofs");
  for (const std::string& dir : context.hf_cache_dirs) key += '\0' + dir;
  std::lock_guard<std::mutex> lock(resolve_mutex_);
  if (auto known = resolved_.find(key); known != resolved_.end()) return known->second;
  if (!resolver_) resolver_ = std::make_unique<ModelResolver>(models_);
  return resolved_.emplace(std::move(key), resolver_->Resolve(reference, context)).first->second;
}

}  // namespace gpulint
