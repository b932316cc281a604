#include "lint/reader/config_file.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace gpulint {
namespace {

// YAML documents nest as the user wrote them; deeper than this is not a config file.
constexpr int kMaxDepth = 32;
// Aliases make a tree of a few lines stand for billions of values (each `*a` repeats the whole
// anchored subtree): the walk visits at most this many nodes, then the file is refused.
constexpr size_t kMaxNodes = 100000;

struct WalkBudget {
  size_t nodes_left = kMaxNodes;
};

// False when the budget is spent.
bool Walk(const YAML::Node& node, const std::string& prefix, std::string_view text, int depth,
          WalkBudget* budget, std::vector<ConfigEntry>* out) {
  if (depth > kMaxDepth) return true;
  if (budget->nodes_left == 0) return false;
  --budget->nodes_left;
  if (node.IsMap()) {
    for (const auto& item : node) {
      std::string key = item.first.IsScalar() ? item.first.Scalar() : "?";
      if (!Walk(item.second, prefix.empty() ? key : prefix + "." + key, text, depth + 1, budget,
                out))
        return false;
    }
    return true;
  }
  if (node.IsSequence()) {
    // Lists are kept as one comma-joined value (lora_target: [q_proj, v_proj]).
    std::string joined;
    for (const auto& element : node) {
      if (budget->nodes_left == 0) return false;
      --budget->nodes_left;
      if (element.IsScalar()) joined += (joined.empty() ? "" : ",") + element.Scalar();
    }
    ConfigEntry entry;
    entry.key = prefix;
    entry.value = joined;
    entry.offset = static_cast<size_t>(std::max(0, node.Mark().pos));
    out->push_back(entry);
    return true;
  }
  ConfigEntry entry;
  entry.key = prefix;
  if (node.IsNull()) {
    entry.is_null = true;
    out->push_back(entry);
    return true;
  }
  if (!node.IsScalar()) return true;
  entry.value = node.Scalar();
  int pos = node.Mark().pos;
  if (pos >= 0 && static_cast<size_t>(pos) < text.size()) {
    size_t start = static_cast<size_t>(pos);
    char first = text[start];
    if (first == '"' || first == '\'') {
      entry.quoted = true;
      ++start;
    }
    entry.offset = start;
    entry.length = entry.value.size();
    entry.exact = text.substr(start, entry.length) == entry.value;
  }
  out->push_back(entry);
  return true;
}

}  // namespace

bool ReadConfigEntries(std::string_view text, std::vector<ConfigEntry>* entries,
                       std::string* error) {
  try {
    YAML::Node root = YAML::Load(std::string(text));
    WalkBudget budget;
    if (!Walk(root, "", text, 0, &budget, entries)) {
      entries->clear();
      *error =
          fmt::format("it holds more than {} values (YAML aliases expanded); not read", kMaxNodes);
      return false;
    }
  } catch (const YAML::Exception& e) {
    *error = fmt::format("{} at line {}:{}", e.msg, e.mark.line + 1, e.mark.column + 1);
    return false;
  }
  return true;
}

std::vector<std::pair<size_t, std::string>> YamlComments(std::string_view text) {
  std::vector<std::pair<size_t, std::string>> comments;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      quote = 0;  // plain YAML scalars do not span lines in the files gpulint reads
    } else if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      if (i == 0 || text[i - 1] == ' ' || text[i - 1] == ':' || text[i - 1] == '\n' ||
          text[i - 1] == '[' || text[i - 1] == ',' || text[i - 1] == '-')
        quote = c;
    } else if (c == '#' && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t' ||
                            text[i - 1] == '\n')) {
      size_t end = text.find('\n', i);
      if (end == std::string_view::npos) end = text.size();
      comments.push_back({i, std::string(text.substr(i + 1, end - i - 1))});
      i = end - 1;
    }
  }
  return comments;
}

}  // namespace gpulint
