// The model catalog: built-in entries (catalog/models/*.toml, compiled in) and the user's own
// (gpulint.toml [[model]]). Built-in tables are indexed by id up front and parsed only when
// asked for, so that start-up does not pay for models a script never names.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lint/catalog/model_entry.h"

namespace gpulint {

class ModelCatalog {
 public:
  /// A catalog holding the built-in models.
  ModelCatalog();
  ~ModelCatalog();
  ModelCatalog(const ModelCatalog&) = delete;
  ModelCatalog& operator=(const ModelCatalog&) = delete;

  /// Adds a user model; it shadows a built-in entry with the same id.
  void Add(ModelEntry entry);

  /// The entry whose id or one of whose aliases equals `id`, ignoring case; nullptr when there
  /// is none. Sets `error`
  /// when the entry exists but does not parse (a broken data file).
  std::shared_ptr<const ModelEntry> Find(std::string_view id, std::string* error) const;

  /// Every id, built-in and user, in catalog order.
  std::vector<std::string> Ids() const;
  /// Every id and alias as (name, the entry's id), in catalog order.
  std::vector<std::pair<std::string, std::string>> Names() const;

 private:
  struct Slot;
  std::vector<std::unique_ptr<Slot>> slots_;
  mutable std::mutex parse_mutex_;  // files are linted on several threads
};

}  // namespace gpulint
