#include "lint/workspace/file_cache.h"

namespace gpulint {

bool FileCache::Read(const std::string& path, std::string* text) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto known = texts_.find(path); known != texts_.end()) {
      if (!known->second) return false;
      *text = *known->second;
      return true;
    }
  }
  // Read outside the lock; two threads may read the same file at once, and both get its text.
  std::optional<std::string> read;
  std::string content;
  if (reader_(path, &content)) read = std::move(content);
  std::lock_guard<std::mutex> lock(mutex_);
  auto entry = texts_.emplace(path, std::move(read)).first;  // or the other thread's answer
  if (!entry->second) return false;
  *text = *entry->second;
  return true;
}

}  // namespace gpulint
