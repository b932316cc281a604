#include "lint/rules/rule.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <cmath>
#include <toml++/toml.h>

#include "lint/core/setting_types.h"
#include "lint/util/toml_parse.h"
#include "lint/util/strings.h"
#include "lint/util/toml_strings.h"

namespace gpulint {
namespace {

std::string Where(const std::string& path, const toml::source_region& region, size_t extra_column,
                  const std::string& id) {
  return fmt::format("{}:{}:{}{}", path, region.begin.line, region.begin.column + extra_column,
                     id.empty() ? "" : " (rule " + id + ")");
}

// "{est.total_gib:.1f} GiB" -> literal and expression parts.
bool ParseMessage(const std::string& text, const ExprSchema& schema, std::vector<MessagePart>* parts,
                  std::string* error, size_t* column) {
  size_t i = 0;
  std::string literal;
  while (i < text.size()) {
    if (text[i] == '{' && i + 1 < text.size() && text[i + 1] == '{') {
      literal += '{';
      i += 2;
      continue;
    }
    if (text[i] == '}' && i + 1 < text.size() && text[i + 1] == '}') {
      literal += '}';
      i += 2;
      continue;
    }
    if (text[i] != '{') {
      literal += text[i++];
      continue;
    }
    size_t close = text.find('}', i);
    if (close == std::string::npos) {
      *error = "'{' in the message is never closed";
      *column = i;
      return false;
    }
    std::string inside = text.substr(i + 1, close - i - 1);
    std::string format;
    size_t colon = inside.rfind(':');
    if (colon != std::string::npos && colon + 1 < inside.size() &&
        inside.find_first_of("\"'", colon) == std::string::npos) {
      format = inside.substr(colon + 1);
      inside = inside.substr(0, colon);
      // A number format as fmt reads it, with a width and precision of two digits at most: a
      // width of 2^31 would make every message gigabytes long.
      static const re2::RE2 kNumberFormat("[<>^]?[-+ ]?#?0?[0-9]{0,2}(\\.[0-9]{1,2})?[eEfFgG%]?");
      if (!re2::RE2::FullMatch(format, kNumberFormat)) {
        *error = fmt::format("'{{:{}}}' is not a number format with a width of at most 99", format);
        *column = i + 1 + colon;
        return false;
      }
    }
    if (!literal.empty()) {
      parts->push_back({literal, nullptr, ""});
      literal.clear();
    }
    std::string expr_error;
    size_t expr_column = 0;
    auto expr = ParseExpression(inside, &expr_error, &expr_column);
    if (expr) TypeCheck(*expr, schema, &expr_error, &expr_column);
    if (!expr || !expr_error.empty()) {
      *error = "message: " + expr_error;
      *column = i + 1 + expr_column;
      return false;
    }
    parts->push_back({"", std::move(expr), format});
    i = close + 1;
  }
  if (!literal.empty()) parts->push_back({literal, nullptr, ""});
  return true;
}

std::string FormatValue(const ExprValue& value, const std::string& format) {
  if (value.missing) return "?";
  switch (value.type) {
    case ExprType::kNumber:
      if (!format.empty()) {
        try {
          return fmt::format(fmt::runtime("{:" + format + "}"), value.number);
        } catch (const fmt::format_error&) {
          return fmt::format("{}", value.number);
        }
      }
      if (value.number == std::floor(value.number) && std::fabs(value.number) < 1e15)
        return fmt::format("{}", static_cast<long long>(value.number));
      return fmt::format("{:.3g}", value.number);
    case ExprType::kBool: return value.boolean ? "true" : "false";
    case ExprType::kString: return value.text;
    case ExprType::kList: {
      std::string out;
      for (const ExprValue& item : value.list)
        out += (out.empty() ? "" : ", ") + FormatValue(item, format);
      return out;
    }
    case ExprType::kAny: return "?";
  }
  return "?";
}

}  // namespace

namespace {

bool FixValueTypedText(const std::string& setting, const toml::node& value, std::string* text,
                       std::string* why);

// A value a rule's fix writes into scripts: of the setting's type, within the values the
// setting may take (rules/settings.toml, as --set is checked: a pack's `tp = 0` or
// `gpu_memory_utilization = nan` was written as a fix), and for text, a plain word that does
// not start with '-' (a pack from a stranger's pull request must not write
// "fp8 $(touch /tmp/P)" into a script, nor "--trust-remote-code" as a flag's value).
bool FixValueText(const std::string& setting, const toml::node& value, std::string* text,
                  std::string* why) {
  if (!FixValueTypedText(setting, value, text, why)) return false;
  if (std::string problem = ValueTextProblem(setting, *text); !problem.empty()) {
    *why = problem;
    return false;
  }
  return true;
}

bool FixValueTypedText(const std::string& setting, const toml::node& value, std::string* text,
                       std::string* why) {
  auto info = SettingTypes().find(setting);
  if (info == SettingTypes().end()) {
    *why = "unknown setting";
    return false;
  }
  switch (info->second.type) {
    case SettingType::kBool:
      if (!value.is_boolean()) break;
      *text = *value.value<bool>() ? "true" : "false";
      return true;
    case SettingType::kInt:
      if (!value.is_integer()) break;
      *text = std::to_string(*value.value<int64_t>());
      return true;
    case SettingType::kNumber:
      if (!value.is_integer() && !value.is_floating_point()) break;
      *text = value.is_integer() ? std::to_string(*value.value<int64_t>())
                                 : fmt::format("{}", *value.value<double>());
      return true;
    case SettingType::kString: {
      static const re2::RE2 kPlainWord("[A-Za-z0-9_.:/+@][A-Za-z0-9_.:/+@-]{0,199}");
      if (!value.is_string()) break;
      *text = *value.value<std::string>();
      if (re2::RE2::FullMatch(*text, kPlainWord)) return true;
      *why = "a text value is one plain word (letters, digits and _ . : / + @ -, not first '-')";
      return false;
    }
    case SettingType::kList: break;
  }
  *why = "not a value of the setting's type (rules/settings.toml)";
  return false;
}

std::unique_ptr<Rule> RuleFromTable(const toml::table& table, const std::string& path,
                                    const ExprSchema& schema, bool with_docs,
                                    std::string* error) {
  auto rule = std::make_unique<Rule>();
  Rule& r = *rule;
  r.path = path;
  r.id = table["id"].value_or(std::string());
  auto fail = [&](const std::string& what, const toml::node* node, size_t extra = 0) {
    *error = fmt::format("{}: {}", what,
                         node ? Where(path, node->source(), extra, r.id)
                              : fmt::format("{}{}", path, r.id.empty() ? "" : " (rule " + r.id + ")"));
    return nullptr;
  };
  // Built-in rules are GLnnn; a team's own pack picks its own prefix (ACME001).
  static const re2::RE2 kId("[A-Z]{2,10}\\d{3,4}");
  static const re2::RE2 kName("[a-z0-9]+(-[a-z0-9]+)*");
  if (!re2::RE2::FullMatch(r.id, kId))
    return fail("'id' must be capital letters then digits (GL101, ACME001)", table.get("id"));
  r.name = table["name"].value_or(std::string());
  if (!re2::RE2::FullMatch(r.name, kName))
    return fail("'name' must be kebab-case", table.get("name"));
  r.category = table["category"].value_or(std::string());
  if (r.category.empty()) return fail("'category' is required", nullptr);
  if (!ParseSeverity(table["severity"].value_or(std::string()), &r.severity))
    return fail("'severity' must be error, warning or info", table.get("severity"));
  r.scope = table["scope"].value_or(std::string("workload"));
  if (r.scope != "workload" && r.scope != "file" && r.scope != "device" &&
      r.scope != "unresolved" && r.scope != "invalid" && r.scope != "notice" &&
      r.scope != "builtin")
    return fail("'scope' must be workload, file, device, unresolved, invalid, notice or builtin",
                table.get("scope"));
  if (const toml::table* applies = table["applies_to"].as_table()) {
    r.roles = TomlStrings(applies->get("roles"));
    r.frameworks = TomlStrings(applies->get("frameworks"));
  }
  r.at = TomlStrings(table.get("at"));
  for (const std::string& name : r.at)
    if (!StartsWith(name, "cluster.") && name != "reading" && !schema.count(name) &&
        !schema.count("*"))
      return fail(fmt::format("'at': unknown setting '{}'", name), table.get("at"));

  if (r.scope != "builtin") {
    const toml::node* when = table.get("when");
    if (!when || !when->is_string()) return fail("'when' (an expression) is required", when);
    r.when_text = *when->value<std::string>();
    std::string expr_error;
    size_t column = 0;
    r.when = ParseExpression(r.when_text, &expr_error, &column);
    if (!r.when) return fail("'when': " + expr_error, when, column + 1);
    ExprType type = TypeCheck(*r.when, schema, &expr_error, &column);
    if (!expr_error.empty()) return fail("'when': " + expr_error, when, column + 1);
    if (type != ExprType::kBool && type != ExprType::kAny)
      return fail(fmt::format("'when' must be a boolean, not a {}", ExprTypeName(type)), when, 1);
  }
  const toml::node* message = table.get("message");
  if (!message || !message->is_string()) return fail("'message' is required", message);
  std::string message_error;
  size_t message_column = 0;
  if (!ParseMessage(*message->value<std::string>(), schema, &r.message, &message_error,
                    &message_column))
    return fail("'message': " + message_error, message, message_column + 1);

  if (const toml::table* fix = table["fix"].as_table()) {
    r.fix_objective = (*fix)["objective"].value_or(std::string());
    if (!r.fix_objective.empty() && r.fix_objective != "fit" &&
        r.fix_objective != "maximize-batch" && r.fix_objective != "maximize-context")
      return fail("fix.objective must be fit, maximize-batch or maximize-context",
                  fix->get("objective"));
    if (const toml::table* set = (*fix)["set"].as_table())
      for (const auto& [key, value] : *set) {
        std::string text_value, why;
        if (!FixValueText(std::string(key.str()), value, &text_value, &why))
          return fail(fmt::format("fix.set.{}: {}", key.str(), why), &value);
        r.fix_set[std::string(key.str())] = text_value;
      }
    std::string safety = (*fix)["safety"].value_or(std::string("safe"));
    if (safety != "safe" && safety != "unsafe")
      return fail("fix.safety must be safe or unsafe", fix->get("safety"));
    r.fix_safe = safety == "safe";
  }

  const toml::table* doc = table["doc"].as_table();
  if (!doc && !with_docs) return rule;
  if (!doc) return fail("[doc] is required (what, why, example, instead, fix)", nullptr);
  r.doc.what = (*doc)["what"].value_or(std::string());
  r.doc.why = (*doc)["why"].value_or(std::string());
  r.doc.example = (*doc)["example"].value_or(std::string());
  r.doc.instead = (*doc)["instead"].value_or(std::string());
  r.doc.fix = (*doc)["fix"].value_or(std::string());
  r.doc.options = (*doc)["options"].value_or(std::string());
  r.doc.file = (*doc)["file"].value_or(r.doc.file);
  for (const auto& [key, node] : *doc) {
    static const char* const kKnownDoc[] = {"what", "why", "example", "instead",
                                            "fix",  "options", "file"};
    bool known = false;
    for (const char* k : kKnownDoc) known = known || key.str() == k;
    if (!known) return fail(fmt::format("unknown key 'doc.{}'", key.str()), &node);
  }
  for (const auto& [name, value] : std::initializer_list<std::pair<const char*, const std::string*>>{
           {"what", &r.doc.what}, {"why", &r.doc.why}, {"example", &r.doc.example},
           {"instead", &r.doc.instead}, {"fix", &r.doc.fix}})
    if (value->empty()) return fail(fmt::format("doc.{} is required", name), doc);
  for (const auto& [key, node] : table) {
    static const char* const kKnown[] = {"id",      "name",    "category", "severity", "scope",
                                         "applies_to", "when", "message",  "at",       "fix",
                                         "doc"};
    bool known = false;
    for (const char* k : kKnown) known = known || key.str() == k;
    if (!known) return fail(fmt::format("unknown key '{}'", key.str()), &node);
  }
  return rule;
}

}  // namespace

bool LoadRules(const std::string& text, const std::string& path, const ExprSchema& schema,
               std::vector<std::unique_ptr<Rule>>* rules, std::string* error, bool with_docs) {
  // Without docs, a one-rule file is parsed only up to its [doc] table, which comes last: the
  // documentation is most of each file, and `lint` never shows it (start-up time).
  std::string_view parsed = text;
  if (!with_docs && text.find("[[rule]]") == std::string::npos) {
    size_t doc = text.find("\n[doc]\n");
    if (doc != std::string::npos) parsed = std::string_view(text).substr(0, doc + 1);
  }
  toml::table table;
  if (!ParseToml(parsed, path, &table, error)) return false;
  if (const toml::array* many = table["rule"].as_array()) {
    for (const toml::node& node : *many) {
      const toml::table* one = node.as_table();
      if (!one) continue;
      auto rule = RuleFromTable(*one, path, schema, with_docs, error);
      if (!rule) return false;
      rules->push_back(std::move(rule));
    }
    return true;
  }
  auto rule = RuleFromTable(table, path, schema, with_docs, error);
  if (!rule) return false;
  rules->push_back(std::move(rule));
  return true;
}

namespace {

template <typename Lookup>
std::string RenderWith(const Rule& rule, Lookup& lookup) {
  std::string out;
  for (const MessagePart& part : rule.message)
    out += part.expr ? FormatValue(Evaluate(*part.expr, lookup), part.format) : part.literal;
  return out;
}

}  // namespace

std::string RenderMessage(const Rule& rule, const ExprLookup& lookup) {
  return RenderWith(rule, lookup);
}

std::string RenderMessage(const Rule& rule, MemoLookup& lookup) { return RenderWith(rule, lookup); }

std::string RuleUrl(const Rule& rule) {
  return fmt::format("https://github.com/gpulint/gpulint/blob/main/docs/rules/{}.md", rule.id);
}

std::string RuleDocText(const Rule& rule) {
  std::string out = fmt::format("{} {} ({}, {})\n\n", rule.id, rule.name,
                                SeverityName(rule.severity), rule.category);
  out += fmt::format("What it does\n  {}\n\nWhy it matters\n  {}\n\nExample\n", rule.doc.what,
                     rule.doc.why);
  auto indent = [](const std::string& text) {
    std::string result = "  ";
    for (char c : text) {
      result += c;
      if (c == '\n') result += "  ";
    }
    while (!result.empty() && (result.back() == ' ' || result.back() == '\n')) result.pop_back();
    return result + "\n";
  };
  out += indent(rule.doc.example);
  out += "\nUse instead\n" + indent(rule.doc.instead);
  out += "\nFix\n" + indent(rule.doc.fix);
  if (!rule.doc.options.empty()) out += "\nOptions\n" + indent(rule.doc.options);
  out += "\nSuppress with: # gpulint: disable=" + rule.id + " -- reason\n";
  return out;
}

std::string RuleDocMarkdown(const Rule& rule) {
  std::string out = fmt::format("# {} {}\n\n**{}** ({})\n\n", rule.id, rule.name,
                                SeverityName(rule.severity), rule.category);
  out += fmt::format("## What it does\n{}\n\n## Why it matters\n{}\n\n", rule.doc.what,
                     rule.doc.why);
  std::string language = EndsWith(rule.doc.file, ".py")     ? "python"
                         : EndsWith(rule.doc.file, ".yaml") ? "yaml"
                                                            : "sh";
  out += fmt::format("## Example\n```{0}\n{1}\n```\n\n## Use instead\n```{0}\n{2}\n```\n\n",
                     language, rule.doc.example, rule.doc.instead);
  out += fmt::format("## Fix\n{}\n", rule.doc.fix);
  if (!rule.doc.options.empty()) out += fmt::format("\n## Options\n{}\n", rule.doc.options);
  out += fmt::format("\n## Suppress\n`# gpulint: disable={} -- reason` on the line, or on its own "
                     "line above the command.\n",
                     rule.id);
  return out;
}

}  // namespace gpulint
