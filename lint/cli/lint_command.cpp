// `gpulint lint`: read, estimate, check the rules, report; exit 1 on findings at or above
// --fail-on.
#include <fmt/format.h>

#include <unistd.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "lint/analysis/file_analysis.h"
#include "lint/cli/cli.h"
#include "lint/cli/color_choice.h"
#include "lint/cli/commands.h"
#include "lint/cli/options.h"
#include "lint/cli/output_file.h"
#include "lint/cli/terminal_width.h"
#include "lint/core/baseline.h"
#include "lint/core/fingerprint.h"
#include "lint/report/reporter.h"
#include "lint/rules/linter.h"
#include "lint/util/read_file.h"
#include "tuner/fix_provider.h"

namespace gpulint {
namespace {

std::string FindingFingerprint(const ReportInput& input, const Finding& finding) {
  return Fingerprint(finding.rule, input.LineText(finding.span.path, finding.span.line));
}

bool ReadBaseline(const std::string& path, std::set<std::string>* keys, std::string* error) {
  std::string text;
  if (ReadStatus status = ReadRegularFile(path, &text); status != ReadStatus::kOk) {
    *error = fmt::format("baseline {} {}", path, ReadStatusText(status));
    return false;
  }
  return ParseBaseline(text, path, keys, error);
}

}  // namespace

int RunLintCommand(const Args& args) {
  // `lint --fix` and `lint --diff` are `fix --write` and `fix --diff`, as ruff users type them.
  for (const std::string& arg : args) {
    if (arg == "--") break;
    if (arg != "--fix" && arg != "--diff") continue;
    Args fix;
    for (const std::string& a : args) fix.push_back(a == "--fix" ? "--write" : a);
    return RunFixCommandAs(fix, "lint " + arg);
  }
  auto parsed = ParseLintOptions(args);
  if (!parsed.options) return parsed.exit_code;
  LintOptions options = std::move(*parsed.options);
  if (options.paths.empty()) options.paths = {"."};  // as ruff check: the working folder
  const ReporterEntry* reporter = FindReporter(options.format);
  if (!reporter) {
    std::string names;
    for (const ReporterEntry& entry : Reporters())
      names += (names.empty() ? "" : ", ") + std::string(entry.name);
    fmt::print(stderr, "gpulint: error: unknown format '{}' (one of {}): gpulint lint --format\n",
               options.format, names);
    return kExitUsage;
  }
  LintChoices choices;
  choices.select = options.select;
  choices.ignore = options.ignore;
  choices.headroom = options.headroom;
  choices.no_inline_suppress = options.no_inline_suppress;
  choices.with_docs = reporter->needs_docs;
  choices.keep_analysis = reporter->needs_analysis;
  choices.fixes = [](Workspace& workspace, const LintSettings& settings) {
    TunerOptions tuner;
    tuner.headroom = settings.headroom;
    return MakeTunerFixProvider(workspace.maps(), tuner);
  };
  // Text and concise output is each file's part, then a summary: each part is made on the
  // file's lint thread, with its sources at hand, and the sources are then let go. Not when a
  // baseline filters the findings afterwards, or when a second format needs them.
  const bool by_file = reporter->render_file && options.baseline.empty() &&
                       options.write_baseline.empty() && options.output_file.empty();
  const bool color = (options.format == "text" || options.format == "concise") &&
                     options.output_file.empty() && UseColor(options.color, isatty(1));
  // Text on a terminal wraps its messages at the terminal's width.
  const size_t columns =
      options.format == "text" && options.output_file.empty() ? TerminalColumns() : 0;
  if (by_file)
    choices.file_done = [reporter, color, columns](const std::string& path, LintedFile* file) {
      ReportInput one;
      one.color = color;  // quiet changes only the summary
      one.wrap_columns = columns;
      one.files.push_back({path, std::move(file->findings), file->sources.get(), nullptr});
      file->rendered = reporter->render_file(one, one.files.front());
      file->findings = std::move(one.files.front().findings);
      file->sources.reset();
    };
  Linter linter(choices);  // starts parsing the rules while the workspace loads
  Workspace workspace(options);
  workspace.CacheReferencedFiles();  // lint writes nothing
  std::string error;
  std::vector<LoadedFile> files;
  if (!workspace.Init(&error) || !workspace.ListInputs(&files, &error)) {
    fmt::print(stderr, "gpulint: error: {}\n", error);
    return kExitUsage;
  }
  std::vector<LintedFile> linted(files.size());
  ReportInput input;
  input.rules = &linter.rules();
  input.color = color;
  input.wrap_columns = columns;
  input.quiet = options.quiet;
  input.version = GPULINT_VERSION;
  input.working_dir = workspace.WorkingDir();
  // LintAll waits for the rules only once a file is read (reporters list them even for none).
  if (!linter.LintAll(workspace, files, &linted, &error) || !linter.Init(&error)) {
    fmt::print(stderr, "gpulint: error: {}\n", error);
    return kExitUsage;
  }
  for (size_t i = 0; i < files.size(); ++i) {
    input.workloads += linted[i].workloads;
    input.unestimated.insert(input.unestimated.end(), linted[i].unestimated.begin(),
                             linted[i].unestimated.end());
    input.read_in_part.insert(input.read_in_part.end(), linted[i].read_in_part.begin(),
                              linted[i].read_in_part.end());
    ReportFile report;
    report.path = files[i].path;
    report.findings = std::move(linted[i].findings);
    report.analysis = linted[i].analysis.get();
    report.sources = report.analysis ? report.analysis->sources.get() : linted[i].sources.get();
    input.files.push_back(std::move(report));
  }
  if (!options.quiet)
    for (const std::string& warning : workspace.warnings())
      fmt::print(stderr, "gpulint: warning: {}\n", warning);

  // Baseline: report only findings that are not recorded in it.
  if (!options.baseline.empty()) {
    std::set<std::string> known;
    if (!ReadBaseline(options.baseline, &known, &error)) {
      fmt::print(stderr, "gpulint: error: {}\n", error);
      return kExitUsage;
    }
    for (ReportFile& file : input.files) {
      std::vector<Finding> fresh;
      for (Finding& finding : file.findings)
        if (!known.count(finding.span.path + "|" + FindingFingerprint(input, finding)))
          fresh.push_back(std::move(finding));
      file.findings = std::move(fresh);
    }
  }
  if (!options.write_baseline.empty()) {
    nlohmann::ordered_json baseline;
    baseline["version"] = 1;
    baseline["findings"] = nlohmann::ordered_json::array();
    for (const ReportFile& file : input.files)
      for (const Finding& finding : file.findings)
        baseline["findings"].push_back({{"path", finding.span.path},
                                        {"rule", finding.rule},
                                        {"fingerprint", FindingFingerprint(input, finding)}});
    if (!WriteOutputFile(
            options.write_baseline,
            baseline.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
            &error)) {
      fmt::print(stderr, "gpulint: error: {}\n", error);
      return kExitUsage;
    }
  }

  if (by_file) {
    // The parts go out as they are, not copied into one string first (a large tree's report is
    // tens of megabytes). fmt::print, like the other formats: a failed write is an error.
    for (LintedFile& file : linted) {
      fmt::print("{}", file.rendered);
      std::string().swap(file.rendered);
    }
    fmt::print("{}", reporter->render_summary(input));
  } else if (!options.output_file.empty()) {
    if (!WriteOutputFile(options.output_file, reporter->render(input), &error)) {
      fmt::print(stderr, "gpulint: error: {}\n", error);
      return kExitUsage;
    }
    ReportInput terminal = input;
    terminal.color = UseColor(options.color, isatty(1));
    terminal.wrap_columns = TerminalColumns();
    fmt::print("{}", FindReporter("text")->render(terminal));
  } else {
    fmt::print("{}", reporter->render(input));
  }
  if (options.statistics) {
    std::map<std::string, int> counts;
    for (const ReportFile& file : input.files)
      for (const Finding& finding : file.findings) ++counts[finding.rule + " " + finding.name];
    std::vector<std::pair<int, std::string>> rows;
    for (const auto& [rule, count] : counts) rows.emplace_back(count, rule);
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    for (const auto& [count, rule] : rows) fmt::print(stderr, "{:>5}  {}\n", count, rule);
  }
  if (options.exit_zero) return kExitClean;
  Severity threshold = Severity::kError;
  ParseSeverity(options.fail_on, &threshold);
  for (const ReportFile& file : input.files)
    for (const Finding& finding : file.findings)
      if (finding.severity >= threshold) return kExitFindings;
  return kExitClean;
}

}  // namespace gpulint
