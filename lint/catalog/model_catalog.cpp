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
  std::vector<std::string> aliases;          // as written
  std::vector<std::string> lowered_aliases;
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
        // `aliases = ["A", "B"]` on one line, read here so that aliases resolve without
        // parsing every table.
        if (size_t at = block.find("\naliases = ["); at != std::string_view::npos) {
          std::string_view line = block.substr(at + 12, block.find('\n', at + 1) - at - 12);
          for (size_t open = line.find('"'); open != std::string_view::npos;) {
            size_t close = line.find('"', open + 1);
            if (close == std::string_view::npos) break;
            slot->aliases.emplace_back(line.substr(open + 1, close - open - 1));
            slot->lowered_aliases.push_back(ToLower(slot->aliases.back()));
            open = line.find('"', close + 1);
          }
        }
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
  slot->aliases = entry.aliases;
  for (const std::string& alias : entry.aliases) slot->lowered_aliases.push_back(ToLower(alias));
  slot->parsed = std::make_shared<const ModelEntry>(std::move(entry));
  // User entries go first so that they shadow built-in ones with the same id.
  slots_.insert(slots_.begin(), std::move(slot));
}

std::shared_ptr<const ModelEntry> ModelCatalog::Find(std::string_view id,
                                                     std::string* error) const {
  std::string lowered = ToLower(id);
  for (const auto& slot : slots_) {
    if (slot->lowered_id != lowered &&
        std::find(slot->lowered_aliases.begin(), slot->lowered_aliases.end(), lowered) ==
            slot->lowered_aliases.end())
      continue;
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

std::vector<std::pair<std::string, std::string>> ModelCatalog::Names() const {
  std::vector<std::pair<std::string, std::string>> names;
  for (const auto& slot : slots_) {
    names.emplace_back(slot->id, slot->id);
    for (const std::string& alias : slot->aliases) names.emplace_back(alias, slot->id);
  }
  return names;
}

std::vector<std::string> ModelCatalog::Ids() const {
  std::vector<std::string> ids;
  for (const auto& slot : slots_)
    if (std::find(ids.begin(), ids.end(), slot->id) == ids.end()) ids.push_back(slot->id);
  return ids;
}

}  // namespace gpulint
