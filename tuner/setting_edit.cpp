#include "tuner/setting_edit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "lint/core/setting_types.h"
#include "lint/reader/setting_builder.h"
#include "lint/util/strings.h"
#include "tuner/quote.h"

namespace gpulint {
namespace {

// A value written as a boolean: only a switch's, whatever its text ("1" is a batch of one).
bool IsBoolSetting(const std::string& name) {
  auto info = SettingTypes().find(name);
  return info != SettingTypes().end() && info->second.type == SettingType::kBool;
}

// The framework's spellings of `setting` (flags and dotted keys), with their specs.
std::vector<std::pair<std::string, const FlagSpec*>> SpellingsOf(const FrameworkMap& map,
                                                                 const std::string& setting) {
  std::vector<std::pair<std::string, const FlagSpec*>> out;
  for (const auto& [flag, spec] : map.flags)
    if (spec.setting == setting) out.push_back({flag, &spec});
  for (const auto& [key, spec] : map.keys)
    if (spec.setting == setting) out.push_back({key, &spec});
  return out;
}

// How much `spelling` looks like the arguments already in `command`: the same kind (--flag or
// key=value) and the same word separator (_ or -).
int StyleScore(const std::string& spelling, const FlagSpec& spec, const std::string& command) {
  bool is_flag = StartsWith(spelling, "-");
  int score = spec.alias ? 0 : 2;  // the framework's own spelling over its aliases
  if (command.find(spelling) != std::string::npos) score += 100;  // written already
  size_t dashes = 0, underscores = 0, keys = 0;
  for (size_t i = 0; i + 2 < command.size(); ++i) {
    if (command[i] == '-' && command[i + 1] == '-' && std::isalpha(static_cast<unsigned char>(command[i + 2]))) {
      size_t end = command.find_first_of(" =\t\n\\", i);
      std::string flag = command.substr(i, end == std::string::npos ? std::string::npos : end - i);
      dashes += flag.find('-', 2) != std::string::npos;
      underscores += flag.find('_') != std::string::npos;
    }
    if (command[i] == '.' && std::isalpha(static_cast<unsigned char>(command[i + 1]))) ++keys;
  }
  if (is_flag) {
    score += (dashes || underscores) ? 10 : 0;
    if (spelling.find('_') != std::string::npos) score += static_cast<int>(underscores > dashes);
    if (spelling.find('-', 2) != std::string::npos) score += static_cast<int>(dashes > underscores);
  } else {
    score += keys > 0 ? 10 : 0;
  }
  return score;
}

// The text a flag is given for `value`: the framework's own spelling of it (its `values`
// table maps the framework's words to gpulint's), else the value.
std::string FrameworkValue(const FlagSpec& spec, const std::string& value) {
  for (const auto& [written, canonical] : spec.values)
    if (canonical == value) return written;
  return value;
}

std::optional<Edit> Insert(const FileAnalysis& analysis, const FrameworkMaps& maps,
                           const Workload& workload, const std::string& name,
                           const std::string& value, std::string* reason) {
  const FrameworkMap* map = maps.Find(workload.framework);
  if (!map) {
    *reason = fmt::format("{} is not set and gpulint knows no flag for it", name);
    return std::nullopt;
  }
  // Insert beside a related setting the command writes literally (grad_accum next to the
  // micro-batch), else after its last literal argument.
  auto literal = [&](const Setting* s) {
    return s && s->origin == Origin::kLiteral && s->span.valid() &&
           s->span.path == analysis.read.config.path;
  };
  const Setting* anchor = nullptr;
  if (auto info = SettingTypes().find(name); info != SettingTypes().end())
    for (const std::string& related : info->second.related)
      if (!anchor && literal(workload.Find(related))) anchor = workload.Find(related);
  if (!anchor)
    for (const auto& [other, setting] : workload.settings)
      if (literal(&setting) && (!anchor || setting.span.offset > anchor->span.offset))
        anchor = &setting;
  if (!anchor) {
    *reason = fmt::format("{} is not set and the command has no argument gpulint can place a "
                          "flag beside",
                          name);
    return std::nullopt;
  }
  const std::string& text = analysis.file.text;
  size_t at = anchor->span.end();
  // Past a closing quote around the anchor's value.
  if (anchor->span.offset > 0 && at < text.size() &&
      (text[at] == '"' || text[at] == '\'') && text[anchor->span.offset - 1] == text[at])
    ++at;
  std::string command = text.substr(workload.command_span.offset,
                                    at > workload.command_span.offset ? at - workload.command_span.offset : 0);
  auto spellings = SpellingsOf(*map, name);
  if (spellings.empty()) {
    *reason = fmt::format("{} is not set and {} has no flag for it in gpulint's map", name,
                          map->title);
    return std::nullopt;
  }
  // A switch says one value by being there (Megatron's --recompute-activations is selective
  // recompute): it is no spelling for another value while a flag that takes the value is.
  auto says = [&](const FlagSpec& spec) {
    if (spec.kind != FlagSpec::Kind::kSwitch) return true;
    const std::string on = spec.value.empty() ? "true" : spec.value;
    return on == value || (ParseBoolText(on) && ParseBoolText(on) == ParseBoolText(value));
  };
  const bool any_says = std::any_of(spellings.begin(), spellings.end(),
                                    [&](const auto& candidate) { return says(*candidate.second); });
  const std::pair<std::string, const FlagSpec*>* best = nullptr;
  int best_score = -1;
  for (const auto& candidate : spellings) {
    if (any_says && !says(*candidate.second)) continue;
    int score = StyleScore(candidate.first, *candidate.second, command);
    if (score > best_score) {
      best = &candidate;
      best_score = score;
    }
  }
  const std::string& spelling = best->first;
  const FlagSpec& spec = *best->second;
  std::string written =
      QuoteValue(KindOfFile(analysis.file.path), "", 0, 0, FrameworkValue(spec, value));
  std::string argument;
  if (!StartsWith(spelling, "-")) {
    // A Hydra override: booleans as the command already writes them (True or true).
    std::string model = command.find("=True") != std::string::npos ? "True" : "true";
    argument = spelling + "=" + (IsBoolSetting(name) ? SpellLike(model, written) : written);
  } else if (spec.kind == FlagSpec::Kind::kSwitch && !spec.value.empty() && spec.value == value) {
    argument = spelling;  // a switch that stands for the value (--optimizer-cpu-offload)
  } else if (spec.kind == FlagSpec::Kind::kSwitch || spec.kind == FlagSpec::Kind::kBool) {
    bool on = ParseBoolText(written).value_or(false);
    std::string switch_value = spec.value.empty() ? "true" : spec.value;
    if (spec.kind == FlagSpec::Kind::kSwitch && ParseBoolText(switch_value) != on) {
      *reason = fmt::format("{} would need its {} flag removed, not added", name, spelling);
      return std::nullopt;
    }
    argument = on ? spelling : spelling + " false";
  } else {
    argument = spelling + " " + written;
  }
  Edit edit;
  edit.span = analysis.sources->Span(0, at, 0);
  edit.text = " " + argument;
  // A command written one argument per line (the anchor ends its line with a continuation)
  // gets a line of its own, indented like the line after the anchor's.
  size_t after = at;
  while (after < text.size() && (text[after] == ' ' || text[after] == '\t')) ++after;
  if (after + 1 < text.size() && text[after] == '\\' && text[after + 1] == '\n') {
    size_t next_line = after + 2;
    size_t indent_end = next_line;
    while (indent_end < text.size() && (text[indent_end] == ' ' || text[indent_end] == '\t'))
      ++indent_end;
    if (indent_end > next_line && indent_end < text.size() && text[indent_end] != '\n') {
      edit.span = analysis.sources->Span(0, next_line, 0);
      edit.text = text.substr(next_line, indent_end - next_line) + argument + " \\\n";
    }
  }
  return edit;
}

}  // namespace

std::string SpellLike(const std::string& original, const std::string& value) {
  auto as_bool = ParseBoolText(value);
  if (!as_bool || !ParseBoolText(original)) return value;
  if (original == "1" || original == "0") return *as_bool ? "1" : "0";
  std::string word = *as_bool ? "true" : "false";
  if (original == "yes" || original == "no") word = *as_bool ? "yes" : "no";
  bool upper = !original.empty() && std::isupper(static_cast<unsigned char>(original[0]));
  bool all_upper = original.size() > 1 && std::isupper(static_cast<unsigned char>(original[1]));
  for (size_t i = 0; i < word.size(); ++i)
    if (all_upper || (upper && i == 0))
      word[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(word[i])));
  return word;
}

std::optional<Edit> EditSetting(const FileAnalysis& analysis, const FrameworkMaps& maps,
                                size_t index, const std::string& name, const std::string& value,
                                std::string* reason) {
  const Workload& workload = analysis.read.config.workloads[index];
  const Setting* setting = workload.Find(name);
  if (!setting || setting->origin == Origin::kFrameworkDefault)
    return Insert(analysis, maps, workload, name, value, reason);
  if (setting->origin == Origin::kCommandLine) {
    *reason = StartsWith(setting->via, "$")
                  ? fmt::format("{} comes from {}, given with --env: set it where the job is "
                                "launched",
                                name, setting->via)
                  : fmt::format("{} is given with --set, not in the script", name);
    return std::nullopt;
  }
  if (setting->span.valid() && setting->span.path != analysis.read.config.path) {
    *reason = fmt::format("{} is written in {}, which gpulint fix does not change", name,
                          setting->span.path);
    return std::nullopt;
  }
  if (!setting->editable) {
    if (!setting->not_editable_reason.empty()) {
      *reason = fmt::format("{} is not rewritten: {}", name, setting->not_editable_reason);
    } else if (setting->value.is_bool()) {
      *reason = fmt::format("{} is a switch ({}): add or remove it by hand", name,
                            setting->via.empty() ? "a flag without a value" : setting->via);
    } else {
      *reason = fmt::format("{} is not written as a plain value gpulint can rewrite", name);
    }
    return std::nullopt;
  }
  std::string original = analysis.file.text.substr(setting->span.offset, setting->span.length);
  const FrameworkMap* map = maps.Find(workload.framework);
  std::string written = value;
  if (map)
    for (const auto& [spelling, spec] : SpellingsOf(*map, name))
      if (!spec->values.empty() && spec->values.count(original)) written = FrameworkValue(*spec, value);
  Edit edit;
  edit.span = setting->span;
  edit.text = IsBoolSetting(name) ? SpellLike(original, written) : written;
  edit.text = QuoteValue(KindOfFile(analysis.file.path), analysis.file.text, setting->span.offset,
                         setting->span.length, edit.text);
  return edit;
}

}  // namespace gpulint
