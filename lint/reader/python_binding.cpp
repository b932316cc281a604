#include "lint/reader/python_binding.h"

#include <fmt/format.h>

#include "lint/util/strings.h"

namespace gpulint {
namespace {

constexpr int kMaxDepth = 8;

}  // namespace

PythonBinding::PythonBinding(const PyModule& module, int file, size_t base_offset, bool exact,
                             const std::vector<Text>& shell_args, const SourceMap& sources)
    : module_(module),
      file_(file),
      base_offset_(base_offset),
      exact_(exact),
      shell_args_(shell_args),
      sources_(sources) {}

std::optional<Text> PythonBinding::FromArgparse(const std::string& dest, int depth) {
  for (const PyArgument& argument : module_.arguments) {
    if (argument.dest != dest) continue;
    for (size_t i = 0; i < shell_args_.size(); ++i) {
      std::string word = shell_args_[i].Str();
      for (const std::string& flag : argument.flags) {
        if (word == flag) {
          if (argument.store_true || argument.store_false) {
            return Text::Literal(argument.store_true ? "true" : "false", -1, 0, 0, false, true);
          }
          if (i + 1 < shell_args_.size()) return shell_args_[i + 1];
        }
        if (StartsWith(word, flag + "=")) return shell_args_[i].Substr(flag.size() + 1, word.size());
      }
    }
    if (argument.store_true) return Text::Literal("false", -1, 0, 0, false, true);
    if (argument.store_false) return Text::Literal("true", -1, 0, 0, false, true);
    return Resolve(argument.default_value, depth + 1);
  }
  return Text::Unknown(fmt::format("args.{} is not an argparse argument gpulint found", dest),
                       -1, 0, 0);
}

std::optional<Text> PythonBinding::Resolve(const PyValue& value, int depth) {
  if (depth > kMaxDepth) return Text::Unknown("Python values nest too deeply", -1, 0, 0);
  switch (value.kind) {
    case PyValue::Kind::kString:
    case PyValue::Kind::kNumber:
    case PyValue::Kind::kBool:
      return Text::Literal(value.text, file_, base_offset_ + value.offset, value.length,
                           exact_ && value.exact, value.kind == PyValue::Kind::kString);
    case PyValue::Kind::kNone:
      return std::nullopt;
    case PyValue::Kind::kName: {
      auto it = module_.constants.find(value.text);
      if (it != module_.constants.end()) return Resolve(it->second, depth + 1);
      return Text::Unknown(fmt::format("the Python variable '{}' is computed at run time",
                                       value.text),
                           file_, base_offset_ + value.offset, value.length);
    }
    case PyValue::Kind::kAttribute: {
      size_t dot = value.text.find('.');
      std::string head = value.text.substr(0, dot), tail = value.text.substr(dot + 1);
      if (StartsWith(value.text, "torch.")) {  // torch.bfloat16 -> "bfloat16"
        return Text::Literal(tail, file_, base_offset_ + value.offset, value.length, false, true);
      }
      if (head == "args" || head == "opts" || head == "cfg" || head == "config" ||
          head == "script_args" || head == "model_args" || head == "training_args")
        return FromArgparse(tail, depth);
      return Text::Unknown(fmt::format("'{}' is computed at run time", value.text), file_,
                           base_offset_ + value.offset, value.length);
    }
    case PyValue::Kind::kDict: {
      // {0: "35GB", "cpu": "120GB"} -> "0=35GB,cpu=120GB"
      std::string rendered;
      for (const auto& [key, item] : value.entries) {
        auto resolved = Resolve(item, depth + 1);
        if (!resolved || !resolved->Known())
          return Text::Unknown("a dict value is computed at run time", file_,
                               base_offset_ + value.offset, 1);
        rendered += (rendered.empty() ? "" : ",") + key + "=" + resolved->Str();
      }
      return Text::Literal(rendered, file_, base_offset_ + value.offset, 1, false, true);
    }
    case PyValue::Kind::kCall:
    case PyValue::Kind::kList:
    case PyValue::Kind::kOther:
      break;
  }
  return Text::Unknown("a Python expression gpulint does not evaluate", file_,
                       base_offset_ + value.offset, std::max<size_t>(value.length, 1));
}

void PythonBinding::Flatten(const std::string& prefix, const PyValue& value, bool conditional,
                            std::vector<BoundKeyword>* out, int depth) {
  if (depth > kMaxDepth) return;
  const PyValue* target = &value;
  // quantization_config=bnb_config where bnb_config = BitsAndBytesConfig(...) at module level.
  if (value.kind == PyValue::Kind::kName) {
    auto it = module_.constants.find(value.text);
    if (it != module_.constants.end() && it->second.kind == PyValue::Kind::kCall)
      target = &it->second;
  }
  if (target->kind == PyValue::Kind::kCall) {
    for (const auto& [key, item] : target->entries)
      Flatten(prefix + "." + key, item, conditional || item.conditional, out, depth + 1);
    return;
  }
  BoundKeyword keyword;
  keyword.key = prefix;
  keyword.value = Resolve(*target, depth);
  keyword.conditional = conditional || value.conditional;
  if (keyword.conditional) {
    int line = sources_.LineOf(file_, base_offset_ + value.offset);
    keyword.condition_note = fmt::format("set only under a condition (line {} of {})", line,
                                         file_ >= 0 ? sources_.path(file_) : "the Python code");
  }
  out->push_back(std::move(keyword));
}

std::vector<BoundKeyword> PythonBinding::Keywords(const PyCall& call) {
  std::vector<BoundKeyword> out;
  for (size_t i = 0; i < call.positional.size(); ++i)
    Flatten(std::to_string(i), call.positional[i], false, &out, 0);
  for (const auto& [key, value] : call.keywords) Flatten(key, value, false, &out, 0);
  return out;
}

}  // namespace gpulint
