#include "lint/reader/framework_map.h"

#include <fmt/format.h>

#include <toml++/toml.h>
#include <algorithm>
#include <cstdlib>

#include "estimator/engine_version.h"
#include "lint/data/embedded_data.h"
#include "lint/reader/map_condition.h"
#include "lint/util/toml_parse.h"
#include "lint/util/read_file.h"
#include "lint/util/toml_strings.h"

namespace gpulint {
namespace {

std::string Where(const std::string& file, const toml::node& node) {
  return fmt::format("{}:{}:{}", file, node.source().begin.line, node.source().begin.column);
}

// A value in TOML as text: "8", "0.9", "true", "bf16".
std::string AsText(const toml::node& node) {
  if (node.is_string()) return *node.value<std::string>();
  if (node.is_boolean()) return *node.value<bool>() ? "true" : "false";
  if (node.is_integer()) return std::to_string(*node.value<int64_t>());
  if (node.is_floating_point()) return fmt::format("{}", *node.value<double>());
  return "";
}

// The keys a [[match]] or [[workload]] table may hold, and the TOML type of each. A key
// spelled wrong or of the wrong type ("match = 1", "command = 1") would otherwise read as
// absent and the table would match nothing or everything without a word.
enum class KeyType { kString, kStrings, kBool, kTable };
struct KnownKey {
  const char* name;
  KeyType type;
};

bool CheckKeys(const toml::table& table, std::initializer_list<KnownKey> known,
               const char* section, const std::string& where, std::string* error) {
  for (const auto& [key, value] : table) {
    const KnownKey* spec = nullptr;
    for (const KnownKey& k : known)
      if (key.str() == k.name) spec = &k;
    if (!spec) {
      *error = fmt::format("unknown key '{}' in {}: {}", key.str(), section, Where(where, value));
      return false;
    }
    bool ok = false;
    const char* wanted = "";
    switch (spec->type) {
      case KeyType::kString:
        ok = value.is_string();
        wanted = "a string";
        break;
      case KeyType::kStrings:
        ok = value.is_string() ||
             (value.is_array() && (value.as_array()->empty() ||
                                  value.as_array()->is_homogeneous(toml::node_type::string)));
        wanted = "a string or a list of strings";
        break;
      case KeyType::kBool:
        ok = value.is_boolean();
        wanted = "true or false";
        break;
      case KeyType::kTable:
        ok = value.is_table();
        wanted = "a table";
        break;
    }
    if (!ok) {
      *error = fmt::format("{} in {} must be {}: {}", key.str(), section, wanted,
                           Where(where, value));
      return false;
    }
  }
  return true;
}

bool ReadFlagSpec(const toml::node& node, const std::string& where, FlagSpec* spec,
                  std::vector<std::string>* aliases, std::string* error) {
  if (auto setting = node.value<std::string>()) {
    spec->setting = *setting;
    return true;
  }
  const toml::table* table = node.as_table();
  if (!table) {
    *error = fmt::format("a flag maps to a setting name or a table: {}", Where(where, node));
    return false;
  }
  spec->setting = (*table)["setting"].value_or(std::string());
  std::string kind = (*table)["kind"].value_or(std::string("value"));
  if (kind == "switch") {
    spec->kind = FlagSpec::Kind::kSwitch;
  } else if (kind == "bool") {
    spec->kind = FlagSpec::Kind::kBool;
  } else if (kind != "value") {
    *error =
        fmt::format("kind must be value, switch or bool, not '{}': {}", kind, Where(where, node));
    return false;
  }
  if (const toml::node* value = table->get("value")) spec->value = AsText(*value);
  if (const toml::table* values = (*table)["values"].as_table())
    for (const auto& [from, to] : *values) spec->values[std::string(from.str())] = AsText(to);
  spec->workloads = TomlStrings(table->get("workload"));
  spec->config_map = (*table)["config"].value_or(std::string());
  spec->further_model_role = (*table)["further_model"].value_or(std::string());
  spec->unmodelled = (*table)["unmodelled"].value_or(std::string());
  if (const toml::table* values = (*table)["unmodelled_values"].as_table())
    for (const auto& [from, why] : *values)
      spec->unmodelled_values[std::string(from.str())] = AsText(why);
  spec->list = (*table)["list"].value_or(false);
  spec->members = (*table)["members"].value_or(false);
  spec->nargs = (*table)["nargs"].value_or(false);
  if (spec->nargs) spec->list = true;
  spec->scale = (*table)["scale"].value_or(1.0);
  spec->no_limit = TomlStrings(table->get("no_limit"));
  spec->weak = (*table)["weak"].value_or(false);
  spec->unused = (*table)["unused"].value_or(false);
  *aliases = TomlStrings(table->get("aliases"));
  if (spec->setting.empty() && spec->config_map.empty() && spec->further_model_role.empty() &&
      spec->unmodelled.empty() && spec->unmodelled_values.empty()) {
    *error = fmt::format(
        "a flag needs `setting`, `config`, `further_model`, `unmodelled` or "
        "`unmodelled_values`: {}",
        Where(where, node));
    return false;
  }
  return true;
}

bool ReadSpecTable(const toml::table& root, const char* key, const std::string& where,
                   std::map<std::string, FlagSpec>* out, std::string* error) {
  const toml::table* table = root[key].as_table();
  if (!table) return true;
  for (const auto& [name, node] : *table) {
    FlagSpec spec;
    std::vector<std::string> aliases;
    if (!ReadFlagSpec(node, where, &spec, &aliases, error)) return false;
    (*out)[std::string(name.str())] = spec;
    spec.alias = true;
    for (const std::string& alias : aliases) (*out)[alias] = spec;
  }
  return true;
}

}  // namespace

const FlagSpec* FrameworkMap::Flag(const std::string& spelling) const {
  auto it = flags.find(spelling);
  if (it != flags.end()) return &it->second;
  // --flag_name and --flag-name are the same flag to argparse-based tools that accept both.
  std::string swapped = spelling;
  for (size_t i = 2; i < swapped.size(); ++i) {
    if (swapped[i] == '_') {
      swapped[i] = '-';
    } else if (swapped[i] == '-') {
      swapped[i] = '_';
    }
  }
  it = flags.find(swapped);
  return it == flags.end() ? nullptr : &it->second;
}

bool ParseFrameworkMap(const std::string& text, const std::string& where, FrameworkMap* map,
                       std::string* error) {
  toml::table root;
  if (!ParseToml(text, where, &root, error)) return false;
  const toml::table* header = root["framework"].as_table();
  if (!header || !(*header)["name"].value<std::string>()) {
    *error = fmt::format("a flag map needs [framework] with a name: {}", where);
    return false;
  }
  map->path = where;
  map->name = *(*header)["name"].value<std::string>();
  map->title = (*header)["title"].value_or(map->name);
  map->kind = (*header)["kind"].value_or(std::string("framework"));
  map->version = (*header)["version"].value_or(std::string());
  map->package = (*header)["package"].value_or(std::string());
  map->versions = (*header)["versions"].value_or(std::string());
  est::VersionRange range;
  if (!map->versions.empty() &&
      (map->package.empty() || !est::ParseVersionRange(map->versions, &range))) {
    *error = fmt::format(
        "[framework] versions = '{}' needs a package and a pin such as \">=1.0\": {}",
        map->versions, where);
    return false;
  }
  map->source = (*header)["source"].value_or(std::string());
  map->priority = static_cast<int>((*header)["priority"].value_or(int64_t{50}));
  map->positional = TomlStrings(header->get("positional"));
  map->program_after = TomlStrings(header->get("program_after"));
  map->program_separators = TomlStrings(header->get("program_separators"));
  map->distributed = (*header)["distributed"].value_or(false);
  map->inherits = TomlStrings(header->get("inherits"));
  map->kwargs_as_keys = (*header)["kwargs_as_keys"].value_or(false);
  map->unknown_when_unread = TomlStrings(header->get("unknown_when_unread"));
  map->builtins_for = TomlStrings(header->get("builtins_for"));
  if (const toml::array* builtins = root["builtin"].as_array()) {
    for (const toml::node& node : *builtins) {
      const toml::table* b = node.as_table();
      const toml::table* values = b ? (*b)["values"].as_table() : nullptr;
      std::string name = b ? (*b)["name"].value_or(std::string()) : std::string();
      if (!values || name.empty()) {
        *error = fmt::format("each [[builtin]] needs a name and a values table: {}",
                             Where(where, node));
        return false;
      }
      BuiltinConfig config;
      config.source = (*b)["source"].value_or(std::string());
      for (const auto& [key, value] : *values) config.values.emplace_back(key.str(), AsText(value));
      map->builtins[name] = std::move(config);
    }
  }
  // [[match]] and [[workload]] are lists of tables; "match = 1" is no list at all.
  for (const char* list : {"match", "workload"}) {
    const toml::node* node = root.get(list);
    if (node && !node->is_array_of_tables()) {
      *error = fmt::format("{} is a list of tables ([[{}]]): {}", list, list, Where(where, *node));
      return false;
    }
  }
  if (const toml::array* matches = root["match"].as_array()) {
    for (const toml::node& node : *matches) {
      const toml::table& m = *node.as_table();
      if (!CheckKeys(m,
                     {{"command", KeyType::kStrings},
                      {"python_module", KeyType::kString},
                      {"python_script", KeyType::kString},
                      {"requires_flag", KeyType::kStrings},
                      {"requires_value", KeyType::kTable},
                      {"python_call", KeyType::kString},
                      {"config_keys", KeyType::kStrings},
                      {"config_command", KeyType::kStrings},
                      {"config_usage", KeyType::kString},
                      {"title", KeyType::kString}},
                     "[[match]]", where, error))
        return false;
      if (!m.contains("command") && !m.contains("python_module") &&
          !m.contains("python_script") && !m.contains("python_call") &&
          !m.contains("config_keys") && !m.contains("config_command")) {
        *error = fmt::format(
            "a [[match]] names a command, python_module, python_script, python_call, "
            "config_keys or config_command: {}",
            Where(where, node));
        return false;
      }
      MatchSpec match;
      match.command = TomlStrings(m.get("command"));
      match.python_module = m["python_module"].value_or(std::string());
      match.python_script = m["python_script"].value_or(std::string());
      match.requires_flags = TomlStrings(m.get("requires_flag"));
      if (const toml::table* values = m["requires_value"].as_table()) {
        for (const auto& [flag, accepted] : *values) {
          std::vector<std::string> list = TomlStrings(&accepted);
          if (list.empty()) {
            *error = fmt::format("requires_value.{} lists no values (strings): {}",
                                 std::string(flag.str()), Where(where, node));
            return false;
          }
          match.requires_values[std::string(flag.str())] = std::move(list);
        }
      }
      match.python_call = m["python_call"].value_or(std::string());
      match.config_keys = TomlStrings(m.get("config_keys"));
      match.config_command = TomlStrings(m.get("config_command"));
      match.config_usage = m["config_usage"].value_or(std::string());
      match.title = m["title"].value_or(std::string());
      map->matches.push_back(std::move(match));
    }
  }
  if (const toml::array* workloads = root["workload"].as_array()) {
    for (const toml::node& node : *workloads) {
      const toml::table& w = *node.as_table();
      if (!CheckKeys(w,
                     {{"role", KeyType::kString},
                      {"gpus", KeyType::kStrings},
                      {"unless", KeyType::kStrings},
                      {"when", KeyType::kStrings},
                      {"when_all", KeyType::kStrings},
                      {"apart", KeyType::kStrings},
                      {"gpus_within", KeyType::kTable},
                      {"primary", KeyType::kBool},
                      {"shares_process", KeyType::kBool},
                      {"all_visible_gpus", KeyType::kBool}},
                     "[[workload]]", where, error))
        return false;
      WorkloadSpec workload;
      workload.role = w["role"].value_or(std::string());
      workload.gpus = TomlStrings(w.get("gpus"));
      workload.unless = TomlStrings(w.get("unless"));
      workload.when = TomlStrings(w.get("when"));
      workload.when_all = TomlStrings(w.get("when_all"));
      workload.apart = TomlStrings(w.get("apart"));
      if (const toml::table* within = w["gpus_within"].as_table())
        for (const auto& [factor, when] : *within)
          workload.gpus_within[std::string(factor.str())] = when.value_or(std::string());
      workload.primary = w["primary"].value_or(false);
      workload.shares_process = w["shares_process"].value_or(false);
      workload.all_visible_gpus = w["all_visible_gpus"].value_or(false);
      if (workload.role.empty()) {
        *error = fmt::format("[[workload]] needs a role: {}", Where(where, node));
        return false;
      }
      for (const auto* conditions :
           {&workload.unless, &workload.when, &workload.when_all, &workload.apart})
        for (const std::string& condition : *conditions)
          if (std::string why; condition.empty() || !ValidCondition(condition, &why)) {
            *error = fmt::format("[[workload]] {}: condition '{}' {}: {}", workload.role,
                                 condition, condition.empty() ? "is empty" : why,
                                 Where(where, node));
            return false;
          }
      map->workloads.push_back(std::move(workload));
    }
    if (!map->workloads.empty() && std::none_of(map->workloads.begin(), map->workloads.end(),
                                                [](const WorkloadSpec& w) { return w.primary; }))
      map->workloads[0].primary = true;
  }
  if (!ReadSpecTable(root, "flags", where, &map->flags, error) ||
      !ReadSpecTable(root, "keys", where, &map->keys, error) ||
      !ReadSpecTable(root, "kwargs", where, &map->kwargs, error) ||
      !ReadSpecTable(root, "env", where, &map->env, error))
    return false;
  // jsonargparse command lines (LitGPT) take every key of their config files as a flag:
  // `train.micro_batch_size` in YAML is `--train.micro_batch_size` on the command line.
  if ((*header)["keys_as_flags"].value_or(false))
    for (const auto& [key, spec] : map->keys) map->flags.emplace("--" + key, spec);
  if (const toml::table* defaults = root["defaults"].as_table()) {
    for (const auto& [name, node] : *defaults) {
      DefaultSpec spec;
      spec.setting = std::string(name.str());
      if (const toml::table* table = node.as_table()) {
        if (const toml::node* value = table->get("value")) spec.value = AsText(*value);
        spec.source = (*table)["source"].value_or(std::string());
        spec.workloads = TomlStrings(table->get("workload"));
        spec.when = (*table)["when"].value_or(std::string());
        spec.none = (*table)["none"].value_or(false);
        spec.unless_written = TomlStrings(table->get("unless_written"));
        if (std::string why; !ValidCondition(spec.when, &why)) {
          *error =
              fmt::format("default {}: condition '{}' {}: {}", spec.setting, spec.when, why, where);
          return false;
        }
        if (const toml::array* variants = (*table)["variants"].as_array()) {
          for (const toml::node& variant_node : *variants) {
            const toml::table* v = variant_node.as_table();
            if (!v) continue;
            DefaultVariant variant;
            if (const toml::node* value = v->get("value")) variant.value = AsText(*value);
            variant.gpu_min_gib = (*v)["gpu_min_gib"].value_or(0.0);
            variant.gpu_not = TomlStrings(v->get("gpu_not"));
            variant.entry = (*v)["entry"].value_or(std::string());
            variant.role = (*v)["workload"].value_or(std::string());
            variant.when = (*v)["when"].value_or(std::string());
            if (std::string why; !ValidCondition(variant.when, &why)) {
              *error = fmt::format("default {}: variant condition '{}' {}: {}", spec.setting,
                                   variant.when, why, where);
              return false;
            }
            spec.variants.push_back(std::move(variant));
          }
        }
      } else {
        spec.value = AsText(node);
      }
      map->defaults.push_back(std::move(spec));
    }
  }
  if (const toml::array* requirements = root["requires"].as_array()) {
    for (const toml::node& node : *requirements) {
      const toml::table* table = node.as_table();
      const toml::table* set = table ? (*table)["set"].as_table() : nullptr;
      if (!set) {
        *error = fmt::format("[[requires]] needs a `set` table: {}", where);
        return false;
      }
      RequirementSpec spec;
      spec.when = (*table)["when"].value_or(std::string());
      if (std::string why; !ValidCondition(spec.when, &why)) {
        *error = fmt::format("[[requires]]: condition '{}' {}: {}", spec.when, why, where);
        return false;
      }
      spec.source = (*table)["source"].value_or(std::string());
      for (const auto& [name, value] : *set) spec.set.emplace_back(name.str(), AsText(value));
      map->requirements.push_back(std::move(spec));
    }
  }
  if (const toml::array* bounds = root["at_least"].as_array()) {
    for (const toml::node& node : *bounds) {
      const toml::table* table = node.as_table();
      const toml::array* sum = table ? (*table)["sum"].as_array() : nullptr;
      BoundSpec spec;
      if (table) spec.setting = (*table)["setting"].value_or(std::string());
      if (spec.setting.empty() || !sum || sum->empty()) {
        *error = fmt::format("[[at_least]] needs a `setting` and a non-empty `sum` list: {}", where);
        return false;
      }
      for (const toml::node& name : *sum) {
        if (!name.is_string()) {
          *error = fmt::format("[[at_least]] {}: `sum` lists setting names: {}", spec.setting,
                               where);
          return false;
        }
        spec.sum.push_back(name.value_or(std::string()));
      }
      if (const toml::array* times = (*table)["times"].as_array()) {
        for (const toml::node& name : *times) {
          if (!name.is_string()) {
            *error = fmt::format("[[at_least]] {}: `times` lists setting names: {}",
                                 spec.setting, where);
            return false;
          }
          spec.times.push_back(name.value_or(std::string()));
        }
      }
      spec.role = (*table)["workload"].value_or(std::string());
      spec.effect = (*table)["effect"].value_or(std::string("refuses"));
      if (spec.effect != "refuses" && spec.effect != "cuts") {
        *error = fmt::format("[[at_least]] {}: effect is \"refuses\" or \"cuts\", not '{}': {}",
                             spec.setting, spec.effect, where);
        return false;
      }
      spec.when = (*table)["when"].value_or(std::string());
      if (std::string why; !ValidCondition(spec.when, &why)) {
        *error = fmt::format("[[at_least]] {}: condition '{}' {}: {}", spec.setting, spec.when,
                             why, where);
        return false;
      }
      spec.source = (*table)["source"].value_or(std::string());
      map->bounds.push_back(std::move(spec));
    }
  }
  if (const toml::array* readings = root["reading"].as_array()) {
    for (const toml::node& node : *readings) {
      const toml::table* table = node.as_table();
      const toml::table* other = table ? (*table)["other"].as_table() : nullptr;
      ReadingSpec spec;
      if (table) {
        spec.setting = (*table)["setting"].value_or(std::string());
        spec.value = (*table)["value"].value_or(std::string());
        spec.flag = (*table)["flag"].value_or(std::string());
        spec.taken_as = (*table)["taken_as"].value_or(std::string());
        spec.other_as = (*table)["other_as"].value_or(std::string());
        spec.flags = TomlStrings(table->get("flags"));
        spec.unset = (*table)["unset"].value_or(false);
        spec.unpinned = (*table)["unpinned"].value_or(false);
      }
      if (!other || spec.setting.empty() || spec.taken_as.empty() || spec.other_as.empty()) {
        *error = fmt::format(
            "[[reading]] needs `setting`, `taken_as`, `other_as` and an `other` table: {}", where);
        return false;
      }
      if (spec.unset && (spec.value.empty() || !spec.flags.empty())) {
        *error = fmt::format(
            "[[reading]] of an unset {} names the `value` it assumes and no `flags`: {}",
            spec.setting, where);
        return false;
      }
      for (const auto& [name, value] : *other) spec.other.emplace_back(name.str(), AsText(value));
      if (const toml::table* taken = (*table)["taken"].as_table())
        for (const auto& [name, value] : *taken) spec.taken.emplace_back(name.str(), AsText(value));
      map->readings.push_back(std::move(spec));
    }
  }
  if (const toml::table* roles = root["role_words"].as_table())
    for (const auto& [role, words] : *roles)
      map->role_words[std::string(role.str())] = TomlStrings(&words);
  return true;
}

namespace {

// The header of a map file: everything before its first [flags], [keys], [kwargs], [env],
// [defaults], [role_words], [[requires]], [[reading]] or [[builtin]] table (the files put those
// last; rules/frameworks/README.md).
std::string_view HeaderOf(std::string_view text) {
  size_t end = text.size();
  for (const char* section :
       {"\n[flags]", "\n[keys]", "\n[kwargs]", "\n[env]", "\n[defaults", "\n[role_words]",
        "\n[[requires]]", "\n[[reading]]", "\n[[builtin]]"})
    end = std::min(end, text.find(section));
  return text.substr(0, end == std::string_view::npos ? text.size() : end + 1);
}

}  // namespace

FrameworkMaps::FrameworkMaps() {
  for (const EmbeddedFile& file : EmbeddedFilesUnder("rules/frameworks/")) {
    if (file.path.size() < 5 || file.path.substr(file.path.size() - 5) != ".toml") continue;
    FrameworkMap map;
    std::string error;
    if (!ParseFrameworkMap(std::string(HeaderOf(file.content)), std::string(file.path), &map,
                           &error)) {
      fmt::print(stderr, "gpulint: error: built-in flag map is broken: {}\n", error);
      std::abort();
    }
    map.loaded = false;
    map.text = std::string(file.content);
    maps_.push_back(std::move(map));
  }
  std::stable_sort(maps_.begin(), maps_.end(), [](const FrameworkMap& a, const FrameworkMap& b) {
    return a.priority < b.priority;
  });
}

const FrameworkMap& FrameworkMaps::Loaded(const FrameworkMap& map) const {
  std::lock_guard<std::recursive_mutex> lock(load_mutex_);
  if (map.loaded) return map;
  FrameworkMap& slot = maps_[static_cast<size_t>(&map - maps_.data())];
  FrameworkMap full;
  std::string error;
  if (!ParseFrameworkMap(slot.text, slot.path, &full, &error)) {
    fmt::print(stderr, "gpulint: error: built-in flag map is broken: {}\n", error);
    std::abort();
  }
  // Only the body moves in: callers may be iterating the header's [[match]] list right now.
  slot.flags = std::move(full.flags);
  slot.keys = std::move(full.keys);
  slot.kwargs = std::move(full.kwargs);
  slot.env = std::move(full.env);
  slot.defaults = std::move(full.defaults);
  slot.requirements = std::move(full.requirements);
  slot.bounds = std::move(full.bounds);
  slot.readings = std::move(full.readings);
  slot.role_words = std::move(full.role_words);
  slot.builtins = std::move(full.builtins);
  slot.loaded = true;
  slot.text.clear();
  MergeParents(&slot);
  return slot;
}

const BuiltinConfig* FrameworkMaps::FindBuiltin(const std::string& config_map,
                                                const std::string& name) const {
  for (const FrameworkMap& map : maps_) {
    if (map.kind != "builtins" ||
        std::find(map.builtins_for.begin(), map.builtins_for.end(), config_map) ==
            map.builtins_for.end())
      continue;
    const FrameworkMap& loaded = Loaded(map);
    if (auto it = loaded.builtins.find(name); it != loaded.builtins.end()) return &it->second;
  }
  return nullptr;
}

void FrameworkMaps::MergeParents(FrameworkMap* heir) const {
  for (const std::string& parent_name : heir->inherits) {
    const FrameworkMap* parent = Find(parent_name);
    if (!parent || parent == heir) continue;
    // The heir's own entries win; the parent's fill what the heir does not say.
    for (const auto& [flag, spec] : parent->flags) heir->flags.emplace(flag, spec);
    for (const auto& [key, spec] : parent->keys) heir->keys.emplace(key, spec);
    for (const auto& [kwarg, spec] : parent->kwargs) heir->kwargs.emplace(kwarg, spec);
    for (const auto& [name, spec] : parent->env) heir->env.emplace(name, spec);
    for (const DefaultSpec& spec : parent->defaults) {
      bool shadowed = false;
      for (const DefaultSpec& own : heir->defaults)
        shadowed = shadowed || own.setting == spec.setting;
      if (!shadowed) heir->defaults.push_back(spec);
    }
    for (const RequirementSpec& spec : parent->requirements) {
      bool known = false;
      for (const RequirementSpec& own : heir->requirements)
        known = known || (own.when == spec.when && own.set == spec.set);
      if (!known) heir->requirements.push_back(spec);
    }
    for (const BoundSpec& spec : parent->bounds) {
      bool known = false;
      for (const BoundSpec& own : heir->bounds)
        known = known || (own.setting == spec.setting && own.role == spec.role &&
                          own.sum == spec.sum && own.when == spec.when);
      if (!known) heir->bounds.push_back(spec);
    }
    for (const ReadingSpec& spec : parent->readings) {
      bool known = false;
      for (const ReadingSpec& own : heir->readings)
        known = known || (own.setting == spec.setting && own.value == spec.value);
      if (!known) heir->readings.push_back(spec);
    }
  }
  if (heir->kwargs_as_keys)
    for (const auto& [kwarg, spec] : heir->kwargs) heir->keys.emplace(kwarg, spec);
}

void FrameworkMaps::ResolveInheritance() {
  for (FrameworkMap& heir : maps_)
    if (heir.loaded) MergeParents(&heir);
}

bool FrameworkMaps::AddText(const std::string& text, const std::string& where, std::string* error) {
  FrameworkMap map;
  if (!ParseFrameworkMap(text, where, &map, error)) return false;
  // A project map with the name of a built-in one replaces it.
  maps_.erase(std::remove_if(maps_.begin(), maps_.end(),
                             [&](const FrameworkMap& m) { return m.name == map.name; }),
              maps_.end());
  maps_.push_back(std::move(map));
  std::stable_sort(maps_.begin(), maps_.end(), [](const FrameworkMap& a, const FrameworkMap& b) {
    return a.priority < b.priority;
  });
  return true;
}

bool FrameworkMaps::AddFile(const std::string& path, std::string* error) {
  std::string text;
  if (ReadStatus status = ReadRegularFile(path, &text); status != ReadStatus::kOk) {
    *error = fmt::format("flag map {} {}", path, ReadStatusText(status));
    return false;
  }
  if (!AddText(text, path, error)) return false;
  ResolveInheritance();
  return true;
}

std::vector<std::string> FrameworkMaps::Packages() const {
  std::vector<std::string> packages;
  for (const FrameworkMap& map : maps_)
    if (!map.package.empty() &&
        std::find(packages.begin(), packages.end(), map.package) == packages.end())
      packages.push_back(map.package);
  return packages;
}

const FrameworkMap* FrameworkMaps::Find(const std::string& name) const {
  for (const FrameworkMap& map : maps_)
    if (map.name == name) return &Loaded(map);
  return nullptr;
}

}  // namespace gpulint
