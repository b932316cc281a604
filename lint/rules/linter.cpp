#include "lint/rules/linter.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "lint/util/background.h"
#include "lint/util/strings.h"

namespace gpulint {

Linter::Linter(LintChoices choices) : choices_(std::move(choices)) {
  loading_ = StartInBackground([this] {
    std::string error;
    rules_.LoadBuiltIn(&error, choices_.with_docs, /*type_check=*/false);
    return error;
  });
}

Linter::~Linter() {
  if (loading_.valid()) loading_.wait();  // it writes rules_
}

bool Linter::Init(std::string* error) {
  if (loading_.valid()) load_error_ = loading_.get();
  *error = load_error_;
  return error->empty();
}

bool Linter::Prepare(Workspace& workspace, const LoadedFile& file, std::string* error) {
  const ProjectConfig* config = workspace.ConfigFor(file.path, error);
  if (!config) return false;
  // A pack joins the built-in rules, so it waits for them; without packs the file is read and
  // estimated while the rules are still parsing (Lint waits only before checking them).
  if (!config->rule_packs.empty() && !Init(error)) return false;
  // A project's own packs join the rule set the first time a file under it is linted; rule
  // ids are unique across packs, so the order files come in does not change any finding.
  for (const std::string& pack : config->rule_packs) {
    if (!packs_loaded_.insert(pack).second) continue;
    if (!rules_.AddFile(pack, error)) return false;
  }
  return true;
}

bool Linter::LintAll(Workspace& workspace, const std::vector<LoadedFile>& files,
                     std::vector<LintedFile>* out, std::string* error) {
  // Everything shared is loaded here, on one thread: configurations, rule packs, flag maps.
  for (const LoadedFile& file : files)
    if (!Prepare(workspace, file, error)) return false;
  out->clear();
  out->resize(files.size());
  size_t threads = std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()),
                                    (files.size() + 15) / 16);
  if (threads > 1) {
    if (!Init(error)) return false;  // before the threads: Init is not thread-safe
    // Lazily read data is read in full before the threads start, so that they only ever read
    // it: every flag map, every GPU (a few milliseconds, small beside many files).
    for (const FrameworkMap& map : workspace.maps().maps()) workspace.maps().Loaded(map);
    workspace.catalog().gpus().entries();
  }
  std::vector<std::string> errors(files.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < files.size(); i = next++)
      Lint(workspace, files[i], &(*out)[i], &errors[i]);
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& thread : pool) thread.join();
  for (const std::string& message : errors)
    if (!message.empty()) {
      *error = message;
      return false;
    }
  return true;
}

bool ResolveHeadroom(std::optional<double> command_line, const ProjectConfig& project,
                     const RunConfig& script, const std::string& path, double* headroom,
                     std::string* error) {
  *headroom = command_line.value_or(project.headroom.value_or(kDefaultHeadroom));
  auto it = script.directives.find("headroom");
  if (it == script.directives.end() || command_line) return true;
  double value = 0;
  if (!ParseNumber(it->second, &value) || !IsValidHeadroom(value)) {
    *error = fmt::format("'headroom' must be a number in [0, 0.9): '{}', in the gpulint "
                         "directive of {}", it->second, path);
    return false;
  }
  *headroom = value;
  return true;
}

bool Linter::Lint(Workspace& workspace, const LoadedFile& file, LintedFile* out,
                  std::string* error) {
  const ProjectConfig* config = workspace.ConfigFor(file.path, error);
  if (!config) return false;
  if (!config->rule_packs.empty() &&
      !packs_loaded_.count(config->rule_packs.front()) && !Prepare(workspace, file, error))
    return false;
  LoadedFile loaded = file;  // a listed file is read here, on the lint thread
  if (!ReadInput(&loaded, error)) return false;
  out->analysis = std::make_unique<FileAnalysis>();
  if (!AnalyzeFile(workspace, loaded, {}, out->analysis.get(), error)) return false;
  if (!Init(error)) return false;
  LintSettings& settings = out->settings;
  settings.select = choices_.select.empty() ? config->select : choices_.select;
  settings.ignore = config->ignore;
  settings.ignore.insert(settings.ignore.end(), choices_.ignore.begin(), choices_.ignore.end());
  settings.severity = config->severity;
  if (!ResolveHeadroom(choices_.headroom, *config, out->analysis->read.config, file.path,
                       &settings.headroom, error))
    return false;
  settings.inline_suppress = !choices_.no_inline_suppress;
  if (!CheckRuleChoices(rules_, settings, error)) return false;
  FixProvider fixes = choices_.fixes ? choices_.fixes(workspace, settings) : nullptr;
  out->findings = LintFile(*out->analysis, rules_, settings, fixes);
  out->workloads = static_cast<int>(out->analysis->estimates.size());
  for (const WorkloadEstimate& e : out->analysis->estimates) {
    if (!e.breakdown) out->unestimated.push_back(e.skipped.empty() ? "no estimate" : e.skipped);
    else if (!e.unknown_inputs.empty()) out->unestimated.push_back("a value it needs is unknown");
  }
  for (const ReaderNote& note : out->analysis->read.config.notes)
    if (note.level == ReaderNote::Level::kReadInPart)
      out->read_in_part.push_back(
          fmt::format("{}:{}: {}", note.span.valid() ? note.span.path : file.path,
                      note.span.line, note.message));
  if (!choices_.keep_analysis) {
    out->sources = std::move(out->analysis->sources);
    out->analysis.reset();
  }
  if (choices_.file_done) choices_.file_done(file.path, out);
  return true;
}

}  // namespace gpulint
