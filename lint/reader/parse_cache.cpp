#include "lint/reader/parse_cache.h"

namespace gpulint {

std::shared_ptr<const ParsedScript> ParseCache::Parse(const std::string& path,
                                                      std::string_view text) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = scripts_.find(path);
    if (it != scripts_.end() && it->second.first == text) return it->second.second;
  }
  // Parsed outside the lock: the other threads go on with their own files meanwhile.
  auto parsed = std::make_shared<const ParsedScript>(ParseShell(text));
  std::lock_guard<std::mutex> lock(mutex_);
  if (scripts_.size() >= kMaxEntries) scripts_.clear();
  scripts_[path] = {std::string(text), parsed};
  return parsed;
}

std::shared_ptr<const PyModule> ParseCache::ReadPython(const std::string& path,
                                                       std::string_view text,
                                                       const std::set<std::string>& interesting) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = modules_.find(path);
    if (it != modules_.end() && it->second.first == text) return it->second.second;
  }
  auto module = std::make_shared<const PyModule>(gpulint::ReadPython(text, interesting));
  std::lock_guard<std::mutex> lock(mutex_);
  if (modules_.size() >= kMaxEntries) modules_.clear();
  modules_[path] = {std::string(text), module};
  return module;
}

}  // namespace gpulint
