#include "lint/catalog/model_catalog.h"

#include <algorithm>

#include "lint/catalog/model_config.h"
#include "lint/data/embedded_data.h"
#include "lint/util/strings.h"

namespace gpulint {

// One catalog entry: either the text of a built-in [[model]] table not parsed yet, or an entry.
struct ModelCatalog::Slot {
  std::string id;
  std::string lowered_id;
  std::string_view block;  // "[[model]]\n..." inside an embedded file
  std::string where;       // the embedded file's path
  mutable std::shared_ptr<const ModelEntry> parsed;
};

ModelCatalog::ModelCatalog() {
  constexpr std::string_view kTableHeader = "[[model]]\n";
  for (const EmbeddedFile& file : EmbeddedFilesUnder("catalog/models/")) {
    std::string_view text = file.content;
    size_t start = text.find(kTableHeader);
    while (start != std::string_view::npos) {
      size_t next = text.find(std::string("\n") + std::string(kTableHeader), start + 1);
      std::string_view block = text.substr(start, next == std::string_view::npos
                                                      ? std::string_view::npos
                                                      : next + 1 - start);
      // The id is the value of the block's `hf_id = "..."` line.
      size_t key = block.find("\nhf_id = \"");
      if (key != std::string_view::npos) {
        size_t value_start = key + 10;
        size_t value_end = block.find('"', value_start);
        auto slot = std::make_unique<Slot>();
        slot->id = std::string(block.substr(value_start, value_end - value_start));
        slot->lowered_id = ToLower(slot->id);
        slot->block = block;
        slot->where = std::string(file.path);
        slots_.push_back(std::move(slot));
      }
      start = next == std::string_view::npos ? next : next + 1;
    }
  }
}

ModelCatalog::~ModelCatalog() = default;

void ModelCatalog::Add(ModelEntry entry) {
  auto slot = std::make_unique<Slot>();
  slot->id = entry.hf_id;
  slot->lowered_id = ToLower(entry.hf_id);
  slot->parsed = std::make_shared<const ModelEntry>(std::move(entry));
  // User entries go first so that they shadow built-in ones with the same id.
  slots_.insert(slots_.begin(), std::move(slot));
}

std::shared_ptr<const ModelEntry> ModelCatalog::Find(std::string_view id,
                                                     std::string* error) const {
  std::string lowered = ToLower(id);
  for (const auto& slot : slots_) {
    if (slot->lowered_id != lowered) continue;
    std::lock_guard<std::mutex> lock(parse_mutex_);
    if (!slot->parsed) {
      std::vector<ModelEntry> entries;
      if (!ParseModelTables(slot->block, slot->where, &entries, error)) return nullptr;
      if (entries.empty()) {
        *error = "catalog block without a [[model]] table: " + slot->where;
        return nullptr;
      }
      entries[0].origin = "catalog: " + slot->where;
      slot->parsed = std::make_shared<const ModelEntry>(std::move(entries[0]));
    }
    return slot->parsed;
  }
  return nullptr;
}

std::vector<std::string> ModelCatalog::Ids() const {
  std::vector<std::string> ids;
  for (const auto& slot : slots_)
    if (std::find(ids.begin(), ids.end(), slot->id) == ids.end()) ids.push_back(slot->id);
  return ids;
}

}  // namespace gpulint
