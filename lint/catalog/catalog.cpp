#include "lint/catalog/catalog.h"

#include "lint/config/project_config.h"

namespace gpulint {

Catalog::Catalog() = default;
Catalog::~Catalog() = default;

bool Catalog::AddUserEntries(const ProjectConfig& config, std::string* error) {
  for (const ModelEntry& model : config.models) models_.Add(model);
  if (!config.text.empty() && !gpus_.AddFromToml(config.text, config.path, error)) return false;
  resolver_.reset();
  return true;
}

ModelResolution Catalog::ResolveModel(std::string_view reference,
                                      const ResolveContext& context) const {
  std::lock_guard<std::mutex> lock(resolve_mutex_);
  if (!resolver_) resolver_ = std::make_unique<ModelResolver>(models_);
  return resolver_->Resolve(reference, context);
}

}  // namespace gpulint
