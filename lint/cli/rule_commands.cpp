// `gpulint explain RULE` and `gpulint rules`: the rules' documentation from their TOML files.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "lint/cli/cli.h"
#include "lint/cli/commands.h"
#include "lint/cli/options.h"
#include "lint/config/project_config.h"
#include "lint/report/json_version.h"
#include "lint/rules/rule_set.h"
#include "lint/util/suggest.h"

namespace gpulint {
namespace {

bool Load(const std::string& config_path, RuleSet* rules) {
  std::string error;
  if (!rules->LoadBuiltIn(&error)) {
    fmt::print(stderr, "gpulint: error: {}\n", error);
    return false;
  }
  if (config_path.empty()) return true;
  ProjectConfig config;
  if (!LoadProjectConfig(config_path, &config, &error)) {
    fmt::print(stderr, "gpulint: error: {}\n", error);
    return false;
  }
  for (const std::string& pack : config.rule_packs)
    if (!rules->AddFile(pack, &error)) {
      fmt::print(stderr, "gpulint: error: {}\n", error);
      return false;
    }
  return true;
}

}  // namespace

int RunExplainCommand(const Args& args) {
  auto parsed = ParseExplainOptions(args);
  if (!parsed.options) return parsed.exit_code;
  RuleSet rules;
  if (!Load("", &rules)) return kExitUsage;
  const Rule* rule = rules.Find(parsed.options->rule_id);
  if (!rule) {
    std::vector<std::string> names;
    for (const auto& r : rules.rules()) {
      names.push_back(r->id);
      names.push_back(r->name);
    }
    auto close = ClosestNames(parsed.options->rule_id, names, 1);
    fmt::print(stderr, "gpulint: error: unknown rule '{}': gpulint explain\n",
               parsed.options->rule_id);
    if (!close.empty()) fmt::print(stderr, "Did you mean '{}'?\n", close[0]);
    return kExitUsage;
  }
  if (parsed.options->format == "json") {
    nlohmann::ordered_json j;
    j["version"] = kJsonFormatVersion;
    j["id"] = rule->id;
    j["name"] = rule->name;
    j["severity"] = SeverityName(rule->severity);
    j["category"] = rule->category;
    j["url"] = RuleUrl(*rule);
    j["what"] = rule->doc.what;
    j["why"] = rule->doc.why;
    j["example"] = rule->doc.example;
    j["instead"] = rule->doc.instead;
    j["fix"] = rule->doc.fix;
    j["options"] = rule->doc.options;
    j["when"] = rule->when_text;
    fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  } else if (parsed.options->format == "markdown") {
    fmt::print("{}", RuleDocMarkdown(*rule));
  } else {
    fmt::print("{}", RuleDocText(*rule));
  }
  return kExitClean;
}

int RunRulesCommand(const Args& args) {
  auto parsed = ParseListOptions("rules", args);
  if (!parsed.options) return parsed.exit_code;
  RuleSet rules;
  if (!Load(parsed.options->config, &rules)) return kExitUsage;
  if (parsed.options->format == "json") {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& rule : rules.rules())
      list.push_back({{"id", rule->id},
                      {"name", rule->name},
                      {"severity", SeverityName(rule->severity)},
                      {"category", rule->category},
                      {"fix", !rule->fix_objective.empty() || !rule->fix_set.empty()},
                      {"url", RuleUrl(*rule)}});
    fmt::print("{}\n", nlohmann::ordered_json{{"version", kJsonFormatVersion}, {"rules", list}}.dump(
                           2, ' ', false, nlohmann::json::error_handler_t::replace));
    return kExitClean;
  }
  if (parsed.options->format == "markdown") {
    fmt::print("{}", RuleIndexMarkdown(rules));
    return kExitClean;
  }
  for (const auto& rule : rules.rules())
    fmt::print("{}  {:<38} {:<8} {:<12} {}\n", rule->id, rule->name, SeverityName(rule->severity),
               rule->category,
               !rule->fix_objective.empty() || !rule->fix_set.empty() ? "fix" : "");
  return kExitClean;
}

}  // namespace gpulint
