// Maps a model reference as a script writes it (HF id, local folder, Hugging Face cache,
// re-upload, quantized upload) onto an architecture, by exact names only, and says how it got
// there. A name that matches nothing exactly is unknown, with the closest names as suggestions.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "estimator/model_arch.h"
#include "lint/catalog/model_catalog.h"

namespace gpulint {

enum class ResolveStatus {
  kResolved,     ///< entry is set
  kUnknown,      ///< no catalog model matches; suggestions may help
  kInvalid,      ///< a config.json exists but cannot be read (an input error: exit 2)
  kUnsupported,  ///< a format gpulint does not model (GGUF)
};

struct ModelResolution {
  ResolveStatus status = ResolveStatus::kUnknown;
  std::shared_ptr<const ModelEntry> entry;
  est::Quantization quant_from_name;     ///< e.g. "-AWQ" in the name; kDefault when none
  std::vector<std::string> assumptions;  ///< how a non-exact reference was matched
  std::string message;                   ///< why it did not resolve
  std::vector<std::string> suggestions;  ///< closest catalog ids for an unknown reference
};

struct ResolveContext {
  std::string base_dir;                    ///< relative paths are looked up from here
  std::vector<std::string> hf_cache_dirs;  ///< Hugging Face hub cache roots
  bool use_filesystem = true;              ///< false: catalog only (tests, stdin)
};

/// Hub cache roots named by the environment: $HF_HUB_CACHE, $HF_HOME/hub, and
/// ~/.cache/huggingface/hub, in that order.
std::vector<std::string> HfCacheDirsFromEnvironment();

class ModelResolver {
 public:
  explicit ModelResolver(const ModelCatalog& catalog);
  ModelResolution Resolve(std::string_view reference, const ResolveContext& context) const;

  /// The reference without a quantization suffix at the end of its name
  /// ("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4" -> "Qwen/Qwen2.5-7B-Instruct"), with `quant` (may be
  /// null) set from the suffix; `unsupported_reason` when the suffix names a format gpulint
  /// does not model (GGUF). A name without such a suffix comes back unchanged.
  static std::string StripQuantSuffix(std::string_view reference, est::Quantization* quant,
                                      std::string* unsupported_reason);

 private:
  ModelResolution ResolveByName(const std::string& ref) const;

  const ModelCatalog& catalog_;
  /// Lower-cased last path component of every id and alias -> the ids that have it.
  std::map<std::string, std::vector<std::string>> by_last_component_;
  // Per run: what a name resolves to by the catalog, and what the hub cache holds for it.
  mutable std::map<std::string, ModelResolution> by_name_;
  mutable std::map<std::string, std::optional<ModelResolution>> hub_cache_;
};

/// Parses a format name such as "awq-int4", "nf4", "fp8" (catalog/resolution.toml, the `quant`
/// setting) into a quantization; false when the name is unknown.
bool ParseWeightFormat(std::string_view name, est::Quantization* quant);
/// The short name of a format, e.g. "awq-int4".
std::string WeightFormatName(est::WeightFormat format);

}  // namespace gpulint
