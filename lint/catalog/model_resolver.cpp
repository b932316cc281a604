#include "lint/catalog/model_resolver.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>

#include "lint/catalog/checkpoint_size.h"
#include "lint/catalog/model_config.h"
#include "lint/catalog/resolution_rules.h"
#include "lint/util/paths.h"
#include "lint/util/read_file.h"
#include "lint/util/strings.h"
#include "lint/util/suggest.h"

namespace gpulint {
namespace fs = std::filesystem;
namespace {

std::string LastComponent(std::string_view reference) {
  while (!reference.empty() && reference.back() == '/') reference.remove_suffix(1);
  size_t slash = reference.rfind('/');
  return std::string(slash == std::string_view::npos ? reference : reference.substr(slash + 1));
}

bool LooksLikePath(std::string_view reference) {
  return StartsWith(reference, "/") || StartsWith(reference, "./") ||
         StartsWith(reference, "../") || StartsWith(reference, "~") ||
         std::count(reference.begin(), reference.end(), '/') > 1;
}

bool ReadConfigDir(const fs::path& dir, const std::string& origin, ModelResolution* result) {
  fs::path config = dir / "config.json";
  std::error_code ec;
  if (!fs::exists(config, ec)) return false;
  std::string text;
  ReadStatus status = ReadRegularFile(config.string(), &text);
  auto entry = std::make_shared<ModelEntry>();
  std::string error;
  if (status != ReadStatus::kOk ||
      !ParseModelConfigJson(text, config.string(), entry.get(), &error)) {
    result->status = ResolveStatus::kInvalid;
    result->message =
        status == ReadStatus::kOk ? error : config.string() + " " + ReadStatusText(status);
    return true;
  }
  // The weights' own headers, where the folder has them, check what config.json says.
  std::string problem;
  if (auto size = ReadCheckpointSize(dir.string(), &problem)) {
    if (std::string note = CompareCheckpoint(*size, entry->arch); !note.empty())
      result->assumptions.push_back(note);
  } else if (!problem.empty()) {
    result->assumptions.push_back("the weights' size was not checked: " + problem);
  }
  if (entry->hf_id.empty()) entry->hf_id = LastComponent(dir.string());
  entry->arch.name = entry->hf_id;
  entry->origin = origin + ": " + config.string();
  result->status = ResolveStatus::kResolved;
  result->entry = std::move(entry);
  return true;
}

}  // namespace

std::vector<std::string> HfCacheDirsFromEnvironment() {
  std::vector<std::string> dirs;
  if (const char* hub = std::getenv("HF_HUB_CACHE"); hub && *hub) dirs.push_back(hub);
  if (const char* home = std::getenv("HF_HOME"); home && *home)
    dirs.push_back(std::string(home) + "/hub");
  if (const char* user_home = std::getenv("HOME"); user_home && *user_home)
    dirs.push_back(std::string(user_home) + "/.cache/huggingface/hub");
  return dirs;
}

std::string ModelResolver::StripQuantSuffix(std::string_view reference,
                                            est::Quantization* quant,
                                            std::string* unsupported_reason) {
  const ResolutionRules& rules = GetResolutionRules();
  std::string ref(reference);
  while (!ref.empty() && ref.back() == '/') ref.pop_back();
  size_t slash = ref.rfind('/');
  std::string name = slash == std::string::npos ? ref : ref.substr(slash + 1);
  std::vector<std::string> words = SplitAny(ToLower(name), "-_");
  // A format gpulint does not model, named anywhere in the name ("-AQLM-2Bit-1x16").
  for (const QuantSuffix& suffix : rules.quant_suffixes) {
    if (!suffix.anywhere || suffix.format != "unsupported") continue;
    if (std::search(words.begin(), words.end(), suffix.words.begin(), suffix.words.end()) ==
        words.end())
      continue;
    if (unsupported_reason) *unsupported_reason = suffix.reason;
    return ref;
  }
  // Matched at the end, longest first (the rules are sorted that way).
  for (const QuantSuffix& suffix : rules.quant_suffixes) {
    if (suffix.anywhere) continue;
    if (suffix.words.size() >= words.size()) continue;
    if (!std::equal(suffix.words.begin(), suffix.words.end(),
                    words.end() - static_cast<long>(suffix.words.size())))
      continue;
    if (suffix.format == "unsupported") {
      if (unsupported_reason) *unsupported_reason = suffix.reason;
      return ref;
    }
    if (quant) ParseWeightFormat(suffix.format, quant);
    // Cut the name before the suffix's first word and the separator in front of it.
    size_t cut = name.size();
    for (size_t n = 0; n < suffix.words.size(); ++n) {
      size_t sep = name.find_last_of("-_", cut - 1);
      if (sep == std::string::npos) return ref;
      cut = sep;
    }
    return ref.substr(0, (slash == std::string::npos ? 0 : slash + 1) + cut);
  }
  return ref;
}

ModelResolver::ModelResolver(const ModelCatalog& catalog) : catalog_(catalog) {
  for (const auto& [name, id] : catalog.Names())
    by_last_component_[ToLower(LastComponent(name))].push_back(id);
  for (auto& [name, ids] : by_last_component_) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  }
}

ModelResolution ModelResolver::Resolve(std::string_view reference,
                                       const ResolveContext& context) const {
  std::string ref(Trim(reference));
  if (ref.empty()) {
    ModelResolution result;
    result.message = "empty model reference";
    return result;
  }
  // 1. A folder with a config.json wins over the catalog.
  if (context.use_filesystem) {
    ModelResolution result;
    // Strings and one stat, not std::filesystem: this runs for every model reference of
    // every script, and nearly all of them are not folders.
    std::string path = ref;
    if (StartsWith(ref, "~/"))
      if (const char* home = std::getenv("HOME")) path = JoinPath(home, ref.substr(2));
    if (!StartsWith(path, "/") && !context.base_dir.empty()) path = JoinPath(context.base_dir, path);
    struct stat info;
    if (stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode) &&
        ReadConfigDir(path, "config.json", &result))
      return result;
    std::error_code ec;
    // 2. A model already in the Hugging Face cache (looked up once per name and run: a folder
    // walk lints thousands of scripts that name the same few models).
    if (!LooksLikePath(ref) && std::count(ref.begin(), ref.end(), '/') == 1) {
      auto cached = hub_cache_.find(ref);
      if (cached == hub_cache_.end()) {
        std::optional<ModelResolution> hit;
        std::string folder = "models--" + ref.substr(0, ref.find('/')) + "--" +
                             ref.substr(ref.find('/') + 1);
        for (const std::string& root : context.hf_cache_dirs) {
          fs::path snapshots = fs::path(root) / folder / "snapshots";
          if (hit || !fs::is_directory(snapshots, ec)) continue;
          for (const auto& snapshot : fs::directory_iterator(snapshots, ec)) {
            ModelResolution from_cache;
            if (ReadConfigDir(snapshot.path(), "Hugging Face cache", &from_cache)) {
              hit = std::move(from_cache);
              break;
            }
          }
        }
        cached = hub_cache_.emplace(ref, std::move(hit)).first;
      }
      if (cached->second) return *cached->second;
    }
  }
  auto by_name = by_name_.find(ref);
  if (by_name == by_name_.end()) by_name = by_name_.emplace(ref, ResolveByName(ref)).first;
  return by_name->second;
}

// Steps 3 to 5: from the catalog alone, by exact names. Never by a prefix, a word left out
// or a word in common: "DeepSeek-R1-Distill-Qwen-1.5B" is not DeepSeek-R1, and a checkpoint
// folder named after its base ("qwen2.5-7b-sft-epoch3") is unknown until its config.json or a
// declaration says what it is.
ModelResolution ModelResolver::ResolveByName(const std::string& ref) const {
  ModelResolution result;
  std::string error;
  auto found = [&](const std::string& id) {
    result.entry = catalog_.Find(id, &error);
    if (!result.entry) {
      result.status = ResolveStatus::kInvalid;
      result.message = error;
      return;
    }
    result.status = ResolveStatus::kResolved;
  };

  // 3. The exact id or one of the catalog's aliases (any case).
  if (!LooksLikePath(ref) && catalog_.Find(ref, &error)) {
    found(ref);
    return result;
  }

  // 4. A quantized upload (-AWQ, -GPTQ-Int4, -FP8, -bnb-4bit ...): the same name without the
  // suffix, stored in that format.
  std::string unsupported;
  std::string base = StripQuantSuffix(ref, &result.quant_from_name, &unsupported);
  if (!unsupported.empty()) {
    result.status = ResolveStatus::kUnsupported;
    result.message = fmt::format("'{}': {}", ref, unsupported);
    return result;
  }
  const bool quantized = result.quant_from_name.format != est::WeightFormat::kDefault;
  auto stored = [&] {
    return quantized ? fmt::format(", stored as {}", WeightFormatName(result.quant_from_name.format))
                     : std::string();
  };
  if (quantized && !LooksLikePath(base) && catalog_.Find(base, &error)) {
    found(base);
    if (result.status == ResolveStatus::kResolved)
      result.assumptions.push_back(
          fmt::format("'{}' read as {}{}", ref, result.entry->hf_id, stored()));
    return result;
  }

  // 5. The same name in a local folder, a cache path or another organization's upload
  // (/root/Qwen3-4B, unsloth/Llama-3.2-3B-Instruct): one catalog model has exactly that name.
  std::string last = ToLower(LastComponent(base));
  auto named = by_last_component_.find(last);
  if (named != by_last_component_.end()) {
    const std::vector<std::string>& ids = named->second;
    const std::string* pick = ids.size() == 1 ? &ids[0] : nullptr;
    // Two organizations publish the same name: the reference's own organization decides.
    std::string org = ToLower(ref.substr(0, ref.find('/')));
    for (const std::string& id : ids)
      if (ids.size() > 1 && ToLower(id.substr(0, id.find('/'))) == org) pick = &id;
    if (pick) {
      found(*pick);
      if (result.status == ResolveStatus::kResolved)
        result.assumptions.push_back(
            fmt::format("'{}' read as {} (the same name){}", ref, *pick, stored()));
      return result;
    }
  }

  // Unknown: say so, with the closest names.
  result.status = ResolveStatus::kUnknown;
  result.message = fmt::format("unknown model '{}'", ref);
  std::vector<std::string> ids = catalog_.Ids();
  result.suggestions = ClosestNames(ref, ids, 3);
  if (result.suggestions.empty()) {
    std::vector<std::string> names;
    for (const std::string& id : ids) names.push_back(LastComponent(id));
    for (const std::string& name : ClosestNames(LastComponent(base), names, 3))
      for (const std::string& id : ids)
        if (LastComponent(id) == name) result.suggestions.push_back(id);
  }
  return result;
}

bool ParseWeightFormat(std::string_view name, est::Quantization* quant) {
  static const std::pair<const char*, est::WeightFormat> kFormats[] = {
      {"none", est::WeightFormat::kDefault},      {"int8", est::WeightFormat::kInt8},
      {"nf4", est::WeightFormat::kNf4},           {"fp4", est::WeightFormat::kNf4},
      {"nf4-dq", est::WeightFormat::kNf4Double},  {"gptq-int4", est::WeightFormat::kGptqInt4},
      {"gptq", est::WeightFormat::kGptqInt4},     {"gptq-int8", est::WeightFormat::kGptqInt8},
      {"int8-w8a8", est::WeightFormat::kGptqInt8}, {"awq", est::WeightFormat::kAwqInt4},
      {"awq-int4", est::WeightFormat::kAwqInt4},  {"fp8", est::WeightFormat::kFp8},
      {"mxfp4", est::WeightFormat::kMxfp4},       {"nvfp4", est::WeightFormat::kNvfp4},
  };
  std::string lowered = ToLower(name);
  for (const auto& [format_name, format] : kFormats) {
    if (lowered != format_name) continue;
    quant->format = format;
    quant->group_size = lowered == "int8-w8a8" ? 0 : 128;
    return true;
  }
  return false;
}

std::string WeightFormatName(est::WeightFormat format) {
  switch (format) {
    case est::WeightFormat::kDefault: return "none";
    case est::WeightFormat::kInt8: return "int8";
    case est::WeightFormat::kNf4: return "nf4";
    case est::WeightFormat::kNf4Double: return "nf4-dq";
    case est::WeightFormat::kGptqInt4: return "gptq-int4";
    case est::WeightFormat::kGptqInt8: return "gptq-int8";
    case est::WeightFormat::kAwqInt4: return "awq-int4";
    case est::WeightFormat::kFp8: return "fp8";
    case est::WeightFormat::kMxfp4: return "mxfp4";
    case est::WeightFormat::kNvfp4: return "nvfp4";
  }
  return "none";
}

}  // namespace gpulint
