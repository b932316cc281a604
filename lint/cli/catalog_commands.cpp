// `gpulint models` and `gpulint gpus`: the catalog, with parameter counts computed from each
// architecture (not copied from model cards).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "estimator/param_count.h"
#include "estimator/units.h"
#include "lint/catalog/catalog.h"
#include "lint/cli/cli.h"
#include "lint/cli/commands.h"
#include "lint/cli/options.h"
#include "lint/config/project_config.h"
#include "lint/report/json_version.h"
#include "lint/util/strings.h"

namespace gpulint {
namespace {

bool LoadCatalog(const ListOptions& options, Catalog* catalog) {
  if (options.config.empty()) return true;
  ProjectConfig config;
  std::string error;
  if (!LoadProjectConfig(options.config, &config, &error) ||
      !catalog->AddUserEntries(config, &error)) {
    fmt::print(stderr, "gpulint: error: {}\n", error);
    return false;
  }
  return true;
}

std::string Billions(double params) {
  return fmt::format("{:.2f}B", params / 1e9);
}

}  // namespace

int RunModelsCommand(const Args& args) {
  if (!args.empty() && args[0] == "add") return RunModelsAddCommand(Args(args.begin() + 1, args.end()));
  auto parsed = ParseListOptions("models", args);
  if (!parsed.options) return parsed.exit_code;
  const ListOptions& options = *parsed.options;
  Catalog catalog;
  if (!LoadCatalog(options, &catalog)) return kExitUsage;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::string search = ToLower(options.search);
  if (options.format == "text")
    fmt::print("{:<48} {:<18} {:>9} {:>9} {:>9} {:>8}  {}\n", "MODEL", "TYPE", "PARAMS", "ACTIVE",
               "BF16 GiB", "CONTEXT", "CONFIDENCE");
  for (const std::string& id : catalog.models().Ids()) {
    if (!search.empty() && ToLower(id).find(search) == std::string::npos) continue;
    std::string error;
    auto entry = catalog.models().Find(id, &error);
    if (!entry) {
      fmt::print(stderr, "gpulint: error: {}\n", error);
      return kExitUsage;
    }
    est::ParamBreakdown params = est::CountParams(entry->arch);
    double total = params.Total();
    double bf16_gib = est::BytesToGib(2.0 * total);
    if (options.format == "json") {
      nlohmann::ordered_json row;
      row["id"] = id;
      row["model_type"] = entry->arch.model_type;
      row["params_total"] = total;
      row["params_active"] = entry->arch.is_moe()
                                 ? nlohmann::ordered_json(params.TextActive(entry->arch))
                                 : nlohmann::ordered_json(nullptr);
      row["weights_bf16_gib"] = bf16_gib;
      // 0: the catalog's source did not record it.
      row["max_position_embeddings"] =
          entry->arch.max_position_embeddings > 0
              ? nlohmann::ordered_json(entry->arch.max_position_embeddings)
              : nlohmann::ordered_json(nullptr);
      row["confidence"] = entry->confidence;
      row["origin"] = entry->origin;
      list.push_back(row);
      continue;
    }
    fmt::print("{:<48} {:<18} {:>9} {:>9} {:>9.1f} {:>8}  {}\n", id, entry->arch.model_type,
               Billions(total),
               entry->arch.is_moe() ? Billions(params.TextActive(entry->arch)) : "-", bf16_gib,
               entry->arch.max_position_embeddings > 0
                   ? std::to_string(entry->arch.max_position_embeddings)
                   : "?",
               entry->confidence);
  }
  if (options.format == "json")
    fmt::print("{}\n", nlohmann::ordered_json{{"version", kJsonFormatVersion}, {"models", list}}.dump(
                           2, ' ', false, nlohmann::json::error_handler_t::replace));
  return kExitClean;
}

int RunGpusCommand(const Args& args) {
  auto parsed = ParseListOptions("gpus", args);
  if (!parsed.options) return parsed.exit_code;
  const ListOptions& options = *parsed.options;
  Catalog catalog;
  if (!LoadCatalog(options, &catalog)) return kExitUsage;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  if (options.format == "text")
    fmt::print("{:<20} {:>10} {:>9} {:<10} {:>5} {:>4} {:>7} {:>8}\n", "GPU", "MEMORY MiB", "GiB",
               "ARCH", "BF16", "FP8", "GB/s", "TFLOPS");
  for (const GpuEntry& gpu : catalog.gpus().entries()) {
    const est::GpuSpec& spec = gpu.spec;
    if (options.format == "json") {
      nlohmann::ordered_json row;
      row["name"] = spec.name;
      row["memory_mib"] = spec.total_bytes / est::kMiB;
      row["memory_gib"] = est::BytesToGib(spec.total_bytes);
      row["memory_from_marketing"] = gpu.memory_from_marketing;
      row["arch"] = spec.arch;
      row["bf16"] = spec.bf16_support;
      row["fp8"] = spec.fp8_support;
      row["mem_bandwidth_gbps"] = spec.mem_bandwidth_gbps;
      row["bf16_tflops_dense"] = spec.bf16_tflops;
      row["aliases"] = gpu.aliases;
      row["confidence"] = gpu.confidence;
      list.push_back(row);
      continue;
    }
    fmt::print("{:<20} {:>10.0f} {:>9.2f} {:<10} {:>5} {:>4} {:>7} {:>8}\n", spec.name,
               spec.total_bytes / est::kMiB, est::BytesToGib(spec.total_bytes), spec.arch,
               spec.bf16_support ? "yes" : "no", spec.fp8_support ? "yes" : "no",
               spec.mem_bandwidth_gbps > 0 ? fmt::format("{:.0f}", spec.mem_bandwidth_gbps) : "-",
               spec.bf16_tflops > 0 ? fmt::format("{:.0f}", spec.bf16_tflops) : "-");
  }
  if (options.format == "json")
    fmt::print("{}\n", nlohmann::ordered_json{{"version", kJsonFormatVersion}, {"gpus", list}}.dump(
                           2, ' ', false, nlohmann::json::error_handler_t::replace));
  return kExitClean;
}

}  // namespace gpulint
