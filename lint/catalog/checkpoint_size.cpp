#include "lint/catalog/checkpoint_size.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "estimator/serving.h"
#include "estimator/units.h"
#include "lint/util/nesting_depth.h"
#include "lint/util/read_file.h"

namespace gpulint {
namespace fs = std::filesystem;
namespace {

using nlohmann::json;

constexpr size_t kMaxFiles = 4096;
constexpr size_t kMaxHeaderBytes = size_t{8} << 20;

// A file name a weight_map may name: in the folder itself, nothing that climbs out of it.
bool PlainFileName(const std::string& name) {
  return !name.empty() && name.size() <= 255 && name.find('/') == std::string::npos &&
         name.find('\0') == std::string::npos && name != "." && name != "..";
}

bool ReadHeader(const fs::path& file, CheckpointSize* size, std::string* problem) {
  std::string length_bytes;
  if (ReadFilePrefix(file.string(), 8, &length_bytes) != ReadStatus::kOk) {
    *problem = fmt::format("{} has no safetensors header", file.string());
    return false;
  }
  uint64_t length = 0;
  for (int i = 7; i >= 0; --i) length = (length << 8) | static_cast<unsigned char>(length_bytes[i]);
  if (length == 0 || length > kMaxHeaderBytes) {
    *problem = fmt::format("{} declares a {}-byte header", file.string(), length);
    return false;
  }
  std::string prefix;
  if (ReadFilePrefix(file.string(), 8 + static_cast<size_t>(length), &prefix) != ReadStatus::kOk) {
    *problem = fmt::format("{} is shorter than its header", file.string());
    return false;
  }
  return AddSafetensorsHeader(prefix.substr(8), file.string(), size, problem);
}

}  // namespace

bool CheckpointSize::Unquantized() const {
  if (elements <= 0 || bytes_by_dtype.empty()) return false;
  for (const auto& [dtype, bytes] : bytes_by_dtype)
    if (dtype != "BF16" && dtype != "F16" && dtype != "F32") return false;
  return true;
}

bool AddSafetensorsHeader(const std::string& json_text, const std::string& where,
                          CheckpointSize* size, std::string* problem) {
  if (JsonNestingDepth(json_text) > kMaxJsonDepth) {
    *problem = fmt::format("{}: the safetensors header is nested too deep", where);
    return false;
  }
  json header = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (header.is_discarded() || !header.is_object()) {
    *problem = fmt::format("{}: the safetensors header is not a JSON object", where);
    return false;
  }
  for (const auto& [name, tensor] : header.items()) {
    if (name == "__metadata__") continue;
    const json* dtype = tensor.is_object() && tensor.contains("dtype") ? &tensor["dtype"] : nullptr;
    const json* offsets =
        tensor.is_object() && tensor.contains("data_offsets") ? &tensor["data_offsets"] : nullptr;
    const json* shape = tensor.is_object() && tensor.contains("shape") ? &tensor["shape"] : nullptr;
    if (!dtype || !dtype->is_string() || !offsets || !offsets->is_array() ||
        offsets->size() != 2 || !(*offsets)[0].is_number_unsigned() ||
        !(*offsets)[1].is_number_unsigned() || !shape || !shape->is_array()) {
      *problem = fmt::format("{}: tensor '{}' has no dtype, shape and data_offsets", where, name);
      return false;
    }
    uint64_t begin = (*offsets)[0].get<uint64_t>(), end = (*offsets)[1].get<uint64_t>();
    if (end < begin) {
      *problem = fmt::format("{}: tensor '{}' ends before it begins", where, name);
      return false;
    }
    double elements = 1;
    for (const json& dim : *shape) {
      if (!dim.is_number_unsigned()) {
        *problem = fmt::format("{}: tensor '{}' has a shape that is not a list of sizes", where,
                               name);
        return false;
      }
      elements *= static_cast<double>(dim.get<uint64_t>());
    }
    // No checkpoint comes near 10^15 values (the largest hold ~10^12); a shape past it is a
    // forged header, and an infinite count would reach the messages.
    if (!(elements < 1e15)) {
      *problem = fmt::format("{}: tensor '{}' has {:g} values", where, name, elements);
      return false;
    }
    const double bytes = static_cast<double>(end - begin);
    size->bytes += bytes;
    size->elements += elements;
    size->bytes_by_dtype[dtype->get<std::string>()] += bytes;
  }
  ++size->files;
  return true;
}

std::optional<CheckpointSize> ReadCheckpointSize(const std::string& dir, std::string* problem) {
  const fs::path folder(dir);
  const fs::path index_path = folder / "model.safetensors.index.json";
  std::error_code ec;
  CheckpointSize size;
  std::string index_text;
  ReadStatus index_status = ReadRegularFile(index_path.string(), &index_text);
  if (index_status == ReadStatus::kMissing) {
    const fs::path single = folder / "model.safetensors";
    if (!fs::exists(single, ec)) return std::nullopt;
    if (!ReadHeader(single, &size, problem)) return std::nullopt;
    size.source = fmt::format("the safetensors header of {}", single.string());
    return size;
  }
  if (index_status != ReadStatus::kOk) {
    *problem = index_path.string() + " " + ReadStatusText(index_status);
    return std::nullopt;
  }
  json index = JsonNestingDepth(index_text) > kMaxJsonDepth
                   ? json(nullptr)
                   : json::parse(index_text, nullptr, /*allow_exceptions=*/false);
  if (!index.is_object()) {
    *problem = fmt::format("{} is not a JSON object", index_path.string());
    return std::nullopt;
  }
  double total_size = 0;
  if (auto meta = index.find("metadata"); meta != index.end() && meta->is_object())
    if (auto total = meta->find("total_size"); total != meta->end() && total->is_number())
      total_size = total->get<double>();
  std::set<std::string> files;
  if (auto map = index.find("weight_map"); map != index.end() && map->is_object())
    for (const auto& [tensor, file] : map->items())
      if (file.is_string()) files.insert(file.get<std::string>());
  bool headers = !files.empty() && files.size() <= kMaxFiles;
  for (const std::string& file : files) {
    if (!headers) break;
    if (!PlainFileName(file)) {
      *problem = fmt::format("{} names a file outside its folder: {}", index_path.string(), file);
      return std::nullopt;
    }
    std::string why;
    // A missing shard (a download in progress, only the config copied) leaves the index's
    // total; a malformed one is said.
    if (!fs::exists(folder / file, ec)) {
      headers = false;
    } else if (!ReadHeader(folder / file, &size, &why)) {
      *problem = why;
      headers = false;
    }
  }
  if (headers) {
    size.source = fmt::format("the safetensors headers of {} files in {}", size.files, dir);
    return size;
  }
  if (!(total_size > 0 && std::isfinite(total_size))) return std::nullopt;
  CheckpointSize from_index;
  from_index.bytes = total_size;
  from_index.source = fmt::format("the total_size of {}", index_path.string());
  return from_index;
}

std::string CompareCheckpoint(const CheckpointSize& size, const est::ModelArch& arch) {
  const double implied = est::ServingWeightBytes(arch, arch.checkpoint_quant, 1, 1, 1);
  if (implied <= 0 || std::abs(size.bytes - implied) <= 0.02 * implied) return "";
  std::string dtypes;
  for (const auto& [dtype, bytes] : size.bytes_by_dtype)
    dtypes += fmt::format("{}{} {}", dtypes.empty() ? "" : ", ", dtype,
                          bytes < 0.1 * est::kGiB ? fmt::format("{:.1f} MiB", bytes / est::kMiB)
                                                  : fmt::format("{:.1f} GiB", est::BytesToGib(bytes)));
  return fmt::format(
      "{}: {:.1f} GiB{}; config.json implies {:.1f} GiB, which the estimate prices ({})",
      size.source, est::BytesToGib(size.bytes), dtypes.empty() ? "" : " (" + dtypes + ")",
      est::BytesToGib(implied),
      size.bytes > implied
          ? "the files hold more: a multi-token-prediction layer, which engines do not load, or "
            "a part gpulint does not model"
          : "the files hold less: they may belong to another model than the config, or store a "
            "format the config does not declare");
}

}  // namespace gpulint
