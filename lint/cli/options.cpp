// The command-line grammar of every subcommand, in one place (CLI11 is a heavy header).
#include "lint/cli/options.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <iostream>

#include "lint/config/project_config.h"
#include "lint/report/reporter.h"

namespace gpulint {
namespace {

// CLI::Range lets NaN through (every comparison with it is false).
CLI::Validator HeadroomRange() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double value = 0;
        if (!CLI::detail::lexical_cast(text, value) || !IsValidHeadroom(value))
          return "Value " + text + " not in range [0, 0.9)";
        return "";
      },
      "FLOAT in [0, 0.9)");
}

// A list option takes one value per use (`--set a=1 --set b=2`), so that it never swallows the
// paths after it (`--select GL1 run.sh` selects GL1 and lints run.sh).
CLI::Option* Repeatable(CLI::Option* option) {
  return option->expected(1)->allow_extra_args(false)->multi_option_policy(
      CLI::MultiOptionPolicy::TakeAll);
}

void AddInputOptions(CLI::App& app, InputOptions& o, bool text_and_json_only) {
  app.add_option("paths", o.paths, "Scripts or folders to read ('-' reads stdin)");
  app.add_option("--stdin-filename", o.stdin_filename, "Name to report stdin's text under");
  if (text_and_json_only)
    app.add_option("--format", o.format, "Output format")
        ->check(CLI::IsMember({"text", "json", "markdown"}));
  app.add_option("--gpu", o.gpu, "GPU the scripts run on (e.g. H100-80GB); beats declarations");
  app.add_option("--config", o.config, "Use this gpulint.toml instead of the closest one");
  app.add_flag("--isolated", o.isolated, "Ignore every configuration file");
  Repeatable(app.add_option("--env", o.env,
                            "NAME=VALUE for an environment variable the scripts read (repeat)"));
  app.add_option("--output-file", o.output_file,
                 "Also write the chosen format to this file; the terminal gets text");
}

// Runs CLI11 on args; on --help prints help and returns exit 0, on error prints
// "gpulint: error: ..." and returns exit 2.
template <typename T>
Parsed<T> Run(CLI::App& app, const std::vector<std::string>& args, T&& options) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return {std::nullopt, 0};
  } catch (const CLI::ParseError& e) {
    std::cerr << fmt::format("gpulint: error: {}: gpulint {}\n", e.what(), app.get_name());
    std::cerr << fmt::format("Run 'gpulint {} --help' for usage.\n", app.get_name());
    return {std::nullopt, 2};
  }
  return {std::forward<T>(options), 0};
}

}  // namespace

Parsed<LintOptions> ParseLintOptions(const std::vector<std::string>& args) {
  LintOptions o;
  CLI::App app{"Check launch scripts for GPU memory, parallelism and configuration problems.",
               "lint"};
  AddInputOptions(app, o, false);
  std::string formats;
  for (const ReporterEntry& entry : Reporters())
    formats += (formats.empty() ? "" : "|") + std::string(entry.name);
  app.add_option("--format", o.format, formats);
  Repeatable(
      app.add_option("--select", o.select, "Only these rule ids, prefixes or names (GL1,GL203)"))
      ->delimiter(',');
  Repeatable(app.add_option("--ignore", o.ignore, "Skip these rule ids, prefixes or names"))
      ->delimiter(',');
  app.add_option("--fail-on", o.fail_on, "Lowest severity that makes the exit code 1")
      ->check(CLI::IsMember({"error", "warning", "info"}));
  app.add_flag("--statistics", o.statistics, "Print one row per rule with its count");
  app.add_flag("-q,--quiet", o.quiet, "Print the findings only: no summary, no warnings");
  app.add_option("--color", o.color,
                 "Colour text output: auto (a terminal, unless NO_COLOR; FORCE_COLOR forces it), "
                 "always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_flag("--fix", o.fix, "Same as 'gpulint fix --write': apply the safe fixes");
  app.add_flag("--diff", o.diff, "Same as 'gpulint fix --diff': print the fixes as a diff");
  app.add_flag("--exit-zero", o.exit_zero, "Report findings but exit 0");
  app.add_flag("--no-inline-suppress", o.no_inline_suppress,
               "Ignore '# gpulint: disable' comments");
  app.add_option("--baseline", o.baseline, "Report only findings not recorded in this file");
  app.add_option("--write-baseline", o.write_baseline, "Record current findings in this file");
  app.add_option("--headroom", o.headroom,
                 "Fraction of usable memory kept free beyond the estimate's high end (default 0)")
      ->check(HeadroomRange());
  return Run(app, args, std::move(o));
}

Parsed<EstimateOptions> ParseEstimateOptions(const std::vector<std::string>& args) {
  EstimateOptions o;
  CLI::App app{
      "Estimate per-GPU memory of every workload in the scripts, or of one described by "
      "--role/--model/--gpu.",
      "estimate"};
  AddInputOptions(app, o, true);
  Repeatable(app.add_option("--set", o.set, "SETTING=VALUE: override a setting (repeat)"));
  app.add_option("--role", o.role, "Without a script: train or serve")
      ->check(CLI::IsMember(
          {"train", "serve", "rollout", "teacher", "reference", "reward", "critic", "eval"}));
  app.add_option("--model", o.model, "Without a script: the model (HF id or catalog name)");
  app.add_option("--framework", o.framework,
                 "Without a script: the framework whose defaults apply (litgpt, torchtune, "
                 "hf-trainer, ...; a name from rules/frameworks)");
  return Run(app, args, std::move(o));
}

Parsed<FixOptions> ParseFixOptions(const std::vector<std::string>& args,
                                   const std::string& name) {
  FixOptions o;
  CLI::App app{
      "Propose the largest batch or context that fits, or the cheapest change that "
      "makes an out-of-memory configuration fit, as a diff.",
      name};
  AddInputOptions(app, o, true);
  app.add_option("--maximize", o.maximize, "batch or context")
      ->check(CLI::IsMember({"batch", "context"}));
  app.add_flag("--fit", o.fit, "Find the cheapest change set that makes the scripts fit");
  bool diff = false;
  app.add_flag("--diff", diff, "Print a unified diff and write nothing (default)");
  app.add_flag("--write", o.write, "Apply the changes in place (atomically)");
  app.add_flag("--follow-symlinks", o.follow_symlinks,
               "With --write: also write through symbolic links that leave the linted folders");
  app.add_flag("--unsafe-fixes", o.unsafe_fixes,
               "Without --maximize/--fit: also apply fixes that change how the job runs");
  app.add_option("--headroom", o.headroom,
                 "Fraction of usable memory kept free beyond the estimate's high end (default 0)")
      ->check(HeadroomRange());
  Repeatable(app.add_option("--keep", o.keep, "Invariants to keep: global-batch"))->delimiter(',');
  app.add_flag("--pow2", o.pow2, "Only propose powers of two");
  app.add_option("--workload", o.workload, "Only the workload with this role");
  Repeatable(app.add_option("--set", o.set, "SETTING=VALUE: override a setting before searching"));
  app.add_flag("-q,--quiet", o.quiet, "Print the diff only: no notes on what each fix does");
  Parsed<FixOptions> parsed = Run(app, args, std::move(o));
  if (parsed.options && diff && parsed.options->write) {
    std::cerr << "gpulint: error: --diff and --write exclude each other: gpulint fix\n";
    return {std::nullopt, 2};
  }
  return parsed;
}

Parsed<InputOptions> ParseParseOptions(const std::vector<std::string>& args) {
  InputOptions o;
  CLI::App app{
      "Show what gpulint reads from the scripts: workloads, settings and where each "
      "value is written.",
      "parse"};
  AddInputOptions(app, o, true);
  return Run(app, args, std::move(o));
}

Parsed<ExplainOptions> ParseExplainOptions(const std::vector<std::string>& args) {
  ExplainOptions o;
  CLI::App app{"Print a rule's documentation.", "explain"};
  app.add_option("rule", o.rule_id, "Rule id (GL101) or name (out-of-memory)")->required();
  app.add_option("--format", o.format, "text, json or markdown (docs/rules/GLnnn.md)")
      ->check(CLI::IsMember({"text", "json", "markdown"}));
  return Run(app, args, std::move(o));
}

Parsed<ListOptions> ParseListOptions(const std::string& command,
                                     const std::vector<std::string>& args) {
  ListOptions o;
  const char* description =
      command == "rules" ? "List the rules."
      : command == "models"
          ? "List the model catalog (`gpulint models add PATH` declares one from its config.json)."
          : "List the GPU catalog.";
  CLI::App app{description, command};
  if (command == "models")
    app.add_option("--search", o.search, "Only models whose name contains this text");
  if (command == "rules")
    app.add_option("--format", o.format, "text, json or markdown (docs/rules/README.md)")
        ->check(CLI::IsMember({"text", "json", "markdown"}));
  else
    app.add_option("--format", o.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  app.add_option("--config", o.config, "A gpulint.toml whose models, GPUs or rules to include");
  return Run(app, args, std::move(o));
}

Parsed<ModelsAddOptions> ParseModelsAddOptions(const std::vector<std::string>& args) {
  ModelsAddOptions o;
  CLI::App app{
      "Declare a model from its config.json: writes a [[model]] table, with its source, "
      "into the closest gpulint.toml (or ./gpulint.toml).",
      "models add"};
  app.add_option("path", o.path, "A config.json, or a model folder holding one")->required();
  app.add_option("--id", o.id, "The name scripts use for it (default: the folder's name)");
  app.add_option("--config", o.config, "The gpulint.toml or pyproject.toml to add it to");
  app.add_flag("--print", o.print, "Print the table instead of writing it");
  return Run(app, args, std::move(o));
}

Parsed<std::string> ParseCompletionOptions(const std::vector<std::string>& args) {
  std::string shell;
  CLI::App app{
      "Print the completion script of a shell: gpulint completion bash > "
      "~/.local/share/bash-completion/completions/gpulint",
      "completion"};
  app.add_option("shell", shell, "bash, zsh or fish")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "fish"}));
  return Run(app, args, std::move(shell));
}

Parsed<bool> ParseNoOptions(const std::string& command, const std::string& description,
                            const std::vector<std::string>& args) {
  CLI::App app{description, command};
  return Run(app, args, true);
}

}  // namespace gpulint
