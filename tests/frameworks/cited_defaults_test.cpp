// Every framework default comes from the framework's source at a named commit, and this test
// checks the citation against that source. A flag map names its repository and commit in
// [framework] (`repo`, `commit`); each default's `source` cites `path:line` (or
// `path:first-last`) followed by the code there in backticks:
//
//   lora_dropout = { value = 0.0, source = "src/llamafactory/hparams/finetuning_args.py:73-74
//                    `lora_dropout: float = field(` `default=0.0,`" }   (one line in the file)
//
// ../shared/frameworks holds the files where the frameworks define their defaults, copied at
// the commits of its manifest.toml. For a map whose repository is there: the commit must be the
// snapshot's, every default must cite `path:line` with the code quoted, and every quote after a
// citation of a file in the snapshot must be on the lines cited (whitespace collapsed). A file
// the snapshot lacks (another module of the framework, or another repository: transformers'
// defaults that LLaMA-Factory inherits) cannot be checked here; `scripts/check-citations`
// checks those against a full clone. Where ../shared/frameworks is absent the test says so.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <toml++/toml.h>

#include "tests/support/process.h"

namespace {

namespace fs = std::filesystem;
using gpulint::testing::SourcePath;

std::string Collapse(const std::string& text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::vector<std::string> Lines(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

struct Citation {
  std::string path;
  int first = 0, last = 0;
  std::vector<std::string> quotes;  ///< backticked spans up to the next citation
};

// `path:line[-line]` then backticked spans, up to the next citation.
std::vector<Citation> ParseCitations(const std::string& source) {
  static const std::regex kCite(
      R"(([A-Za-z0-9_./-]+\.(py|yaml|yml|sh|json|toml|cfg)):(\d+)(-(\d+))?)");
  std::vector<Citation> out;
  std::vector<std::pair<size_t, size_t>> spans;  // where each citation's text starts and ends
  for (auto it = std::sregex_iterator(source.begin(), source.end(), kCite);
       it != std::sregex_iterator(); ++it) {
    Citation c;
    c.path = (*it)[1];
    c.first = std::stoi((*it)[3]);
    c.last = (*it)[5].matched ? std::stoi((*it)[5]) : c.first;
    out.push_back(c);
    spans.push_back({static_cast<size_t>(it->position() + it->length()), source.size()});
    if (spans.size() > 1) spans[spans.size() - 2].second = static_cast<size_t>(it->position());
  }
  for (size_t i = 0; i < out.size(); ++i) {
    std::string tail = source.substr(spans[i].first, spans[i].second - spans[i].first);
    for (size_t open = tail.find('`'); open != std::string::npos;) {
      size_t close = tail.find('`', open + 1);
      if (close == std::string::npos) break;
      out[i].quotes.push_back(tail.substr(open + 1, close - open - 1));
      open = tail.find('`', close + 1);
    }
  }
  return out;
}

// The snapshot file a citation names: its path from the repository root, or a unique file whose
// path ends with it.
fs::path Resolve(const fs::path& snapshot, const std::string& cited) {
  if (fs::is_regular_file(snapshot / cited)) return snapshot / cited;
  fs::path found;
  int matches = 0;
  for (const auto& entry : fs::recursive_directory_iterator(snapshot)) {
    if (!entry.is_regular_file()) continue;
    std::string generic = entry.path().generic_string();
    if (generic.size() > cited.size() &&
        generic.compare(generic.size() - cited.size(), cited.size(), cited) == 0 &&
        generic[generic.size() - cited.size() - 1] == '/') {
      found = entry.path();
      ++matches;
    }
  }
  return matches == 1 ? found : fs::path();
}

// repo -> commit, from the snapshot's manifest.
std::map<std::string, std::string> ManifestCommits(const fs::path& manifest) {
  std::map<std::string, std::string> commits;
  toml::table table = toml::parse_file(manifest.string());
  if (const toml::array* files = table["file"].as_array())
    for (const toml::node& node : *files)
      if (const toml::table* f = node.as_table())
        commits[(*f)["repo"].value_or(std::string())] = (*f)["commit"].value_or(std::string());
  return commits;
}

// Every sourced entry of a map: its defaults, [[requires]] and [[at_least]].
std::vector<std::pair<std::string, std::string>> DefaultSources(const toml::table& map) {
  std::vector<std::pair<std::string, std::string>> out;  // setting, source
  const toml::table* defaults = map["defaults"].as_table();
  if (!defaults) return out;
  for (const auto& [key, node] : *defaults) {
    // A copy: clang 14 cannot capture a structured binding in a lambda.
    const std::string setting(key.str());
    auto add = [&](const toml::node& n) {
      if (const toml::table* t = n.as_table())
        out.push_back({setting, (*t)["source"].value_or(std::string())});
    };
    if (const toml::array* list = node.as_array())
      for (const toml::node& n : *list) add(n);
    else
      add(node);
  }
  // What a change needs alongside it, and the bounds a change moves: the framework's lines too.
  for (const char* section : {"requires", "at_least"})
    if (const toml::array* list = map[section].as_array())
      for (const toml::node& n : *list)
        if (const toml::table* t = n.as_table())
          out.push_back({fmt::format("[[{}]] {}", section, (*t)["setting"].value_or(std::string())),
                         (*t)["source"].value_or(std::string())});
  return out;
}

}  // namespace

TEST_CASE("citations parse: path, line range and the quoted code after each", "[frameworks]") {
  auto cites = ParseCitations(
      "grpo_utils.py:560-566 `logits / temperature`; model_utils.py:587 `@torch.compile` "
      "and `def log_softmax_and_gather(`");
  REQUIRE(cites.size() == 2);
  CHECK(cites[0].path == "grpo_utils.py");
  CHECK(cites[0].first == 560);
  CHECK(cites[0].last == 566);
  CHECK(cites[0].quotes == std::vector<std::string>{"logits / temperature"});
  CHECK(cites[1].quotes ==
        std::vector<std::string>{"@torch.compile", "def log_softmax_and_gather("});
  CHECK(ParseCitations("TrainingArguments.optim = adamw_torch").empty());
  CHECK(Collapse("  a =\n    field(\tdefault=0 ) ") == "a = field( default=0 )");
}

TEST_CASE("every framework default cites the framework's source, and the code is there",
          "[frameworks]") {
  const fs::path shared = SourcePath("../shared/frameworks");
  if (!fs::is_regular_file(shared / "manifest.toml")) {
    WARN("../shared/frameworks is absent: cited defaults are not checked");
    return;
  }
  const auto commits = ManifestCommits(shared / "manifest.toml");
  // A map may state an older release of a framework whose command line changed (OpenRLHF 0.9's
  // underscore flags); scripts/check-citations checks it at its own commit. Each such
  // repository still needs a map at the snapshot's commit, checked here.
  std::map<std::string, bool> at_snapshot;  // repo -> a map is at the snapshot's commit
  int checked_maps = 0, checked_citations = 0;
  for (const auto& entry : fs::directory_iterator(SourcePath("rules/frameworks"))) {
    if (entry.path().extension() != ".toml") continue;
    toml::table map = toml::parse_file(entry.path().string());
    const std::string repo = map["framework"]["repo"].value_or(std::string());
    const std::string commit = map["framework"]["commit"].value_or(std::string());
    const size_t slash = repo.find('/');
    if (slash == std::string::npos || !commits.count(repo)) continue;
    const fs::path snapshot = shared / (repo.substr(0, slash) + "__" + repo.substr(slash + 1));
    if (!fs::is_directory(snapshot)) continue;
    INFO(entry.path().filename().string() << " (" << repo << ")");
    CHECK(commit.size() == 40);
    at_snapshot[repo] = at_snapshot[repo] || commit == commits.at(repo);
    if (commit != commits.at(repo)) continue;
    ++checked_maps;
    for (const auto& [setting, source] : DefaultSources(map)) {
      INFO("default " << setting << ": " << source);
      const std::vector<Citation> cites = ParseCitations(source);
      CHECK_FALSE(cites.empty());  // a default without `path:line` cites nothing
      for (const Citation& cite : cites) {
        INFO("cited " << cite.path << ":" << cite.first << "-" << cite.last);
        CHECK_FALSE(cite.quotes.empty());  // say what the line holds
        fs::path file = Resolve(snapshot, cite.path);
        if (file.empty()) continue;  // not in the snapshot, or another repository's
        std::vector<std::string> lines = Lines(file);
        REQUIRE(cite.first >= 1);
        REQUIRE(cite.last >= cite.first);
        REQUIRE(static_cast<size_t>(cite.last) <= lines.size());
        std::string cited;
        for (int i = cite.first; i <= cite.last; ++i) cited += lines[i - 1] + "\n";
        const std::string text = Collapse(cited);
        for (const std::string& quote : cite.quotes) {
          INFO("quoted `" << quote << "`");
          CHECK(text.find(Collapse(quote)) != std::string::npos);
        }
        ++checked_citations;
      }
    }
  }
  for (const auto& [repo, checked] : at_snapshot) {
    INFO(repo << " has no map at the commit of ../shared/frameworks/manifest.toml");
    CHECK(checked);
  }
  CHECK(checked_maps >= 1);
  CHECK(checked_citations >= checked_maps);
}
