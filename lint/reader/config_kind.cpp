#include "lint/reader/config_kind.h"

#include <algorithm>
#include <set>

#include "lint/reader/config_file.h"
#include "lint/util/strings.h"

namespace gpulint {
namespace {

// True when `key` is one of the file's keys or a table above one ("model" for "model.path").
bool HasKey(const std::set<std::string>& keys, const std::string& key) {
  auto it = keys.lower_bound(key);
  return it != keys.end() && (*it == key || it->compare(0, key.size() + 1, key + ".") == 0);
}

// The first comment line holding a command that starts with `usage` ("tune run ..."), split
// into words, the value after --config replaced by `file_name`; empty when there is none.
std::vector<std::string> UsageFromComments(const std::string& text, const std::string& usage,
                                           const std::string& file_name) {
  for (const auto& [offset, comment] : YamlComments(text)) {
    size_t at = comment.find(usage);
    if (at == std::string::npos) continue;
    std::vector<std::string> words = SplitAny(comment.substr(at), " \t");
    // Up to the end of the command: a trailing remark after it is not an argument.
    for (size_t i = 0; i < words.size(); ++i) {
      if (words[i] == "--config" && i + 1 < words.size()) words[i + 1] = file_name;
      if (words[i] == "\\" || words[i] == "#") {
        words.resize(i);
        break;
      }
    }
    return words;
  }
  return {};
}

}  // namespace

ConfigKind RecognizeConfig(const std::string& text, const std::string& file_name,
                           const FrameworkMaps& maps) {
  ConfigKind kind;
  std::vector<ConfigEntry> entries;
  std::string error;
  if (!ReadConfigEntries(text, &entries, &error)) return kind;
  kind.parsed = true;
  std::set<std::string> keys;
  for (const ConfigEntry& entry : entries) {
    keys.insert(entry.key);
    std::string top = entry.key.substr(0, entry.key.find('.'));
    if (kind.top_keys.size() < 4 &&
        std::find(kind.top_keys.begin(), kind.top_keys.end(), top) == kind.top_keys.end())
      kind.top_keys.push_back(top);
  }
  for (const FrameworkMap& map : maps.maps()) {
    for (const MatchSpec& match : map.matches) {
      if (match.config_keys.empty()) continue;
      if (!std::all_of(match.config_keys.begin(), match.config_keys.end(),
                       [&](const std::string& key) { return HasKey(keys, key); }))
        continue;
      kind.map = &map;
      kind.match = &match;
      if (!match.config_usage.empty()) {
        kind.command = UsageFromComments(text, match.config_usage, file_name);
        kind.usage_missing = kind.command.empty() && match.config_command.empty();
        if (!kind.command.empty()) return kind;
      }
      for (const std::string& word : match.config_command)
        kind.command.push_back(word == "{file}" ? file_name : word);
      return kind;
    }
  }
  return kind;
}

}  // namespace gpulint
