#include "lint/catalog/gpu_catalog.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <toml++/toml.h>

#include "estimator/units.h"
#include "lint/data/embedded_data.h"
#include "lint/util/toml_parse.h"
#include "lint/util/strings.h"
#include "lint/util/suggest.h"
#include "lint/util/toml_strings.h"

namespace gpulint {
namespace {

// The names a GPU resolves by: its canonical name, aliases and id, normalized.
void AddNames(const toml::table& t, GpuEntry* entry) {
  entry->spec.name = t["canonical"].value_or(t["name"].value_or(std::string()));
  entry->aliases.push_back(GpuCatalog::Normalize(entry->spec.name));
  for (const std::string& alias : TomlStrings(t["aliases"].node()))
    entry->aliases.push_back(GpuCatalog::Normalize(alias));
  if (auto id = t["id"].value<std::string>()) entry->aliases.push_back(GpuCatalog::Normalize(*id));
  for (const std::string& alias : TomlStrings(t["unsized_alias"].node()))
    entry->unsized_aliases.push_back(GpuCatalog::Normalize(alias));
}

bool EntryFromTable(const toml::table& t, const std::string& where, GpuEntry* entry,
                    std::string* error) {
  GpuEntry& e = *entry;
  e.spec.name = t["canonical"].value_or(t["name"].value_or(std::string()));
  if (e.spec.name.empty()) {
    *error = fmt::format("[[gpu]] without canonical or name: {}", where);
    return false;
  }
  e.spec.arch = t["arch"].value_or(std::string());
  e.spec.vendor = t["vendor"].value_or(std::string("nvidia"));
  e.spec.bf16_support = t["bf16_support"].value_or(true);
  e.spec.fp8_support = t["fp8_support"].value_or(false);
  e.spec.mem_bandwidth_gbps = t["mem_bandwidth_gbps"].value_or(0.0);
  e.spec.bf16_tflops = t["bf16_tflops_dense"].value_or(0.0);
  e.memory_gb = t["per_device_memory_gb"].value_or(t["memory_gb"].value_or(0.0));
  e.confidence = t["confidence"].value_or(std::string("high"));
  e.source = t["source"].value_or(std::string());
  e.notes = TomlStrings(t["notes"].node());
  e.unsized_up_to = t["unsized_up_to"].value_or(std::string());
  if (auto mib = t["smi_total_mib"].value<double>()) {
    e.spec.total_bytes = est::MibToBytes(*mib);
  } else if (auto bytes = t["reported_total_bytes"].value<double>()) {
    e.spec.total_bytes = *bytes;
  } else if (auto gib = t["memory_gib"].value<double>()) {
    e.spec.total_bytes = est::GibToBytes(*gib);
  } else if (e.memory_gb > 0) {
    // Decimal GB is below the real total, so a verdict made with it is never optimistic.
    e.spec.total_bytes = e.memory_gb * 1e9;
    e.memory_from_marketing = true;
  } else {
    *error = fmt::format("GPU '{}' has no memory size (smi_total_mib, memory_gib or memory_gb): {}",
                         e.spec.name, where);
    return false;
  }
  AddNames(t, &e);
  return true;
}

// The lines of a catalog [[gpu]] block that name it: all that resolution needs to find it.
constexpr const char* kNameKeys[] = {"canonical", "name", "id", "aliases", "unsized_alias"};

// A built-in [[gpu]] block reduced to its name lines (each is one line in catalog/gpus.toml;
// tests/catalog/gpu_catalog_test.cpp checks that the index equals the full parse).
std::string NameLines(std::string_view block) {
  std::string out;
  size_t start = 0;
  while (start < block.size()) {
    size_t end = block.find('\n', start);
    if (end == std::string_view::npos) end = block.size();
    std::string_view line = block.substr(start, end - start);
    for (const char* key : kNameKeys) {
      std::string_view k(key);
      if (StartsWith(line, k) && line.size() > k.size() &&
          (line[k.size()] == ' ' || line[k.size()] == '=')) {
        out.append(line);
        out += '\n';
      }
    }
    start = end + 1;
  }
  return out;
}

bool AddTables(std::string_view text, const std::string& where, std::vector<GpuEntry>* entries,
               std::string* error) {
  toml::table table;
  if (!ParseToml(text, where, &table, error)) return false;
  // The catalog and user files use [[gpu]]; gpulint.toml may use [[gpu_type]] so that its
  // `gpu = "NAME"` default can sit beside them.
  for (const char* key : {"gpu", "gpu_type"}) {
    const toml::array* gpus = table[key].as_array();
    if (!gpus) continue;
    for (const toml::node& node : *gpus) {
      const toml::table* gpu = node.as_table();
      if (!gpu) continue;
      GpuEntry entry;
      if (!EntryFromTable(*gpu, where, &entry, error)) return false;
      entries->push_back(std::move(entry));
    }
  }
  return true;
}

}  // namespace

std::string GpuCatalog::Normalize(std::string_view name) {
  std::string out;
  for (char c : name)
    if (c != ' ' && c != '-' && c != '_') out += static_cast<char>(std::tolower(c));
  return out;
}

GpuCatalog::GpuCatalog() {
  // Start-up reads only the name lines of each built-in GPU; a GPU's full entry is parsed when
  // it is resolved (a run needs one or two of them). Start-up time is what a pre-commit hook
  // feels.
  for (const EmbeddedFile& file : EmbeddedFiles()) {
    if (file.path != "catalog/gpus.toml") continue;
    std::string_view text = file.content;
    const std::string_view separator = "\n[[gpu]]\n";
    size_t at = text.find(separator);
    while (at != std::string_view::npos) {
      size_t next = text.find(separator, at + 1);
      std::string_view block = text.substr(at + separator.size(),
                                           next == std::string_view::npos
                                               ? std::string_view::npos
                                               : next - at - separator.size());
      GpuEntry entry;
      try {
        AddNames(toml::parse(NameLines(block), std::string(file.path)), &entry);
      } catch (const toml::parse_error& e) {
        fmt::print(stderr, "gpulint: error: built-in GPU catalog is broken: {}\n", e.what());
        std::abort();
      }
      entries_.push_back(std::move(entry));
      pending_.push_back("[[gpu]]\n" + std::string(block));
      at = next;
    }
  }
}

const GpuEntry& GpuCatalog::Full(size_t index) const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (index < pending_.size() && !pending_[index].empty()) {
    std::vector<GpuEntry> parsed;
    std::string error;
    if (!AddTables(pending_[index], "catalog/gpus.toml", &parsed, &error) || parsed.size() != 1) {
      fmt::print(stderr, "gpulint: error: built-in GPU catalog is broken: {}\n", error);
      std::abort();
    }
    entries_[index] = std::move(parsed[0]);
    pending_[index].clear();
  }
  return entries_[index];
}

const std::vector<GpuEntry>& GpuCatalog::entries() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  for (size_t i = 0; i < entries_.size(); ++i) Full(i);
  return entries_;
}

bool GpuCatalog::AddFromToml(std::string_view toml_text, const std::string& where,
                             std::string* error) {
  std::vector<GpuEntry> user;
  if (!AddTables(toml_text, where, &user, error)) return false;
  // User entries go first so that their names win.
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  entries_.insert(entries_.begin(), user.begin(), user.end());
  pending_.insert(pending_.begin(), user.size(), std::string());
  resolved_.clear();
  return true;
}

GpuResolution GpuCatalog::Resolve(std::string_view name, std::string_view cluster_default) const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);  // Full() replaces entries in place
  std::string memo_key = std::string(name) + '\0' + std::string(cluster_default);
  if (auto known = resolved_.find(memo_key); known != resolved_.end()) return known->second;
  GpuResolution resolution = ResolveUncached(name, cluster_default);
  resolved_.emplace(std::move(memo_key), resolution);
  return resolution;
}

GpuResolution GpuCatalog::ResolveUncached(std::string_view name,
                                          std::string_view cluster_default) const {
  GpuResolution result;
  std::string key = Normalize(Trim(name));
  if (key.empty()) {
    result.message = "empty GPU name";
    return result;
  }
  auto resolved = [&](const GpuEntry& entry) {
    result.spec = entry.spec;
    if (entry.memory_from_marketing)
      result.assumptions.push_back(fmt::format(
          "{}: no nvidia-smi total in the catalog; the marketed {} GB (decimal) is used",
          entry.spec.name, entry.memory_gb));
    return result;
  };
  // "GENERIC-80GB": a GPU known only by its size (calibration logs, cloud listings).
  if (StartsWith(key, "generic") && EndsWith(key, "gb")) {
    double gib = 0;
    if (ParseNumber(key.substr(7, key.size() - 9), &gib) && gib > 0) {
      result.spec = est::GpuSpec{std::string(Trim(name)), est::GibToBytes(gib), "", "nvidia",
                                 true, false, 0, 0};
      result.assumptions.push_back(fmt::format(
          "{}: a GPU known only by its size; {} GiB total, no fp8 support assumed", name, gib));
      return result;
    }
  }
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (std::find(entries_[i].unsized_aliases.begin(), entries_[i].unsized_aliases.end(), key) ==
        entries_[i].unsized_aliases.end())
      continue;
    const GpuEntry& entry = Full(i);
    // An unsized name resolves to the cluster's GPU when that is a size of the same chip.
    if (!cluster_default.empty()) {
      GpuResolution declared = Resolve(cluster_default);
      if (declared.spec && StartsWith(Normalize(declared.spec->name), key)) return declared;
    }
    resolved(entry);
    if (!entry.unsized_up_to.empty()) {
      GpuResolution largest = Resolve(entry.unsized_up_to);
      if (largest.spec && largest.spec->total_bytes > entry.spec.total_bytes)
        result.largest_variant = largest.spec;
    }
    result.assumptions.push_back(fmt::format(
        "'{}' does not say the memory size: the smaller variant {} is assumed{} (declare the GPU "
        "in gpulint.toml or with --gpu)",
        name, entry.spec.name,
        result.largest_variant
            ? fmt::format(", and the verdict must hold on {} too", result.largest_variant->name)
            : ""));
    return result;
  }
  for (size_t i = 0; i < entries_.size(); ++i)
    if (std::find(entries_[i].aliases.begin(), entries_[i].aliases.end(), key) !=
        entries_[i].aliases.end())
      return resolved(Full(i));
  result.message = fmt::format("unknown GPU '{}'", name);
  std::vector<std::string> names;
  for (const GpuEntry& entry : entries_) names.push_back(entry.spec.name);
  result.suggestions = ClosestNames(name, names, 3);
  return result;
}

}  // namespace gpulint
