#include "lint/reader/parse_cache.h"

namespace gpulint {

template <typename Parsed, typename Make>
std::shared_ptr<const Parsed> ParseCache::Cached(ByPath<const Parsed>& cache,
                                                 const std::string& path, std::string_view text,
                                                 Make make) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = cache.find(path);
    if (it != cache.end() && it->second.first == text) return it->second.second;
  }
  // Parsed outside the lock: the other threads go on with their own files meanwhile.
  auto parsed = std::make_shared<const Parsed>(make());
  std::lock_guard<std::mutex> lock(mutex_);
  if (cache.size() >= kMaxEntries) cache.clear();
  cache[path] = {std::string(text), parsed};
  return parsed;
}

std::shared_ptr<const ParsedScript> ParseCache::Parse(const std::string& path,
                                                      std::string_view text) {
  return Cached(scripts_, path, text, [text] { return ParseShell(text); });
}

std::shared_ptr<const PyModule> ParseCache::ReadPython(const std::string& path,
                                                       std::string_view text,
                                                       const std::set<std::string>& interesting) {
  return Cached(modules_, path, text,
                [text, &interesting] { return gpulint::ReadPython(text, interesting); });
}

}  // namespace gpulint
