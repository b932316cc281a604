#include "lint/reader/setting_builder.h"

#include <algorithm>

#include <fmt/format.h>

#include "lint/core/setting_types.h"
#include "lint/util/strings.h"

namespace gpulint {

Value TypedValue(const std::string& name, const std::string& text) {
  switch (TypeOfSetting(name)) {
    case SettingType::kInt:
    case SettingType::kNumber: {
      double number = 0;
      if (ParseNumber(text, &number)) return Value::Number(number, text);
      return Value::String(text);  // "auto", "None": a rule sees a string, not a number
    }
    case SettingType::kBool:
      if (auto b = ParseBoolText(text)) return Value::Bool(*b);
      return Value::String(text);
    case SettingType::kList:
      return Value::List(SplitAny(text, ","));
    case SettingType::kString:
      return Value::String(text);
  }
  return Value::String(text);
}

Workload WithValues(const Workload& w, const std::map<std::string, std::string>& values) {
  Workload after = w;
  for (const auto& [name, text] : values) {
    Setting& setting = after.settings[name];
    setting.name = name;
    setting.value = TypedValue(name, text);
  }
  return after;
}

std::optional<BuiltSetting> BuildSetting(const FlagSpec& spec, const Text* value, bool negated,
                                         const SourceSpan& flag_span, bool config_origin,
                                         const SourceMap& sources) {
  BuiltSetting built;
  Setting& setting = built.setting;
  setting.name = spec.setting;
  setting.origin = config_origin ? Origin::kConfigFile : Origin::kLiteral;
  setting.span = flag_span;

  auto fixed = [&](const std::string& text) {
    setting.value = TypedValue(spec.setting, text);
    setting.not_editable_reason = "the flag's presence sets this value";
    return built;
  };

  if (spec.kind == FlagSpec::Kind::kSwitch && !value) {
    if (negated) return spec.value.empty() ? std::optional(fixed("false")) : std::nullopt;
    return fixed(spec.value.empty() ? "true" : spec.value);
  }
  if (spec.kind == FlagSpec::Kind::kBool && !value) {
    if (negated) return spec.value.empty() ? std::optional(fixed("false")) : std::nullopt;
    return fixed(spec.value.empty() ? "true" : spec.value);
  }
  if (!value) return std::nullopt;

  // Provenance of the written value.
  // A value that came through a variable points at the variable's text, even when a config
  // file (a heredoc) carried it; one that no file holds came from --env.
  std::string variable = value->Variable();
  if (!variable.empty()) {
    setting.origin = Origin::kVariableDefault;
    setting.via = "$" + variable;
  }
  if (!value->Start() && value->Known()) setting.origin = Origin::kCommandLine;
  int file = -1;
  size_t offset = 0, length = 0;
  if (value->ExactRun(&file, &offset, &length)) {
    setting.span = sources.Span(file, offset, length);
    setting.editable = true;
  } else if (auto start = value->Start()) {
    // Where the value starts, as long as it is, but never past the end of that file: `o$S` at
    // a script's end with S=:wr pointed 4 bytes from the 'o' (found by tests/fuzz/fuzz_shell).
    const size_t size = sources.text(start->first).size();
    const size_t room = start->second < size ? size - start->second : 0;
    setting.span =
        sources.Span(start->first, start->second, std::min(value->Str().size(), room));
    setting.not_editable_reason = "the value is assembled from several places";
  } else {
    setting.not_editable_reason = "the value is not written in a linted file (--env)";
  }
  if (!value->Known()) {
    setting.value = Value();
    setting.editable = false;
    setting.not_editable_reason = value->UnknownReason();
    if (!spec.unused) built.unresolved = Unresolved{spec.setting, value->UnknownReason(), setting.span};
    if (setting.not_editable_reason.find("differently in the branches") != std::string::npos)
      setting.ambiguous = true;
    return built;
  }
  std::string text = value->Str();
  if (spec.kind == FlagSpec::Kind::kBool || (spec.kind == FlagSpec::Kind::kSwitch)) {
    std::optional<bool> b = ParseBoolText(text);
    if (!b) {
      setting.value = Value::String(text);
      return built;
    }
    if (!spec.value.empty()) {
      if (!*b) return std::nullopt;
      setting.editable = false;
      setting.not_editable_reason = "the flag's truth sets this value";
      setting.value = TypedValue(spec.setting, spec.value);
      return built;
    }
    setting.value = Value::Bool(negated ? !*b : *b);
    return built;
  }
  if (!spec.value.empty()) {  // a value flag whose presence sets a fixed value (--ref-load PATH)
    setting.editable = false;
    setting.not_editable_reason = "the flag's presence sets this value";
    setting.value = TypedValue(spec.setting, spec.value);
    return built;
  }
  if (std::find(spec.no_limit.begin(), spec.no_limit.end(), text) != spec.no_limit.end()) {
    setting.value = Value::String(kNoLimit);
    setting.editable = false;
    setting.not_editable_reason = fmt::format("'{}' sets no limit", text);
    return built;
  }
  auto it = spec.values.find(text);
  if (spec.members) {  // the first member of the list that `values` names
    it = spec.values.end();
    for (const std::string& member : SplitAny(text, ", "))
      if (it == spec.values.end() && member != "*") it = spec.values.find(member);
  }
  if (it == spec.values.end()) it = spec.values.find("*");  // any other value
  if (it != spec.values.end()) {
    if (it->second.empty()) return std::nullopt;  // e.g. offload device "none"
    if (it->second != text) {
      setting.editable = false;
      setting.not_editable_reason = fmt::format("'{}' is read as '{}'", text, it->second);
    }
    text = it->second;
  }
  setting.value = TypedValue(spec.setting, text);
  if (spec.scale != 1 && setting.value.is_number()) setting.value.number *= spec.scale;
  return built;
}

}  // namespace gpulint
