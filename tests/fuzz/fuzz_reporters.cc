// libFuzzer target for the reporters: random findings (paths, messages, rule ids and names of
// arbitrary bytes, any lines, columns and lengths, related spans and fixes) over files whose
// text is random too, rendered by every format of Reporters() (whole, and file by file where a
// format renders so). Properties: no crash, hang or sanitizer report; the JSON formats (json,
// sarif, gitlab, rdjson) parse with nlohmann::json, and the line formats (jsonl, rdjsonl) parse
// line by line; the XML formats (checkstyle, junit) are valid UTF-8 with no control byte but
// tab, newline and carriage return; the terminal and CI formats (text, concise, github,
// markdown) hold no ESC byte unless colour is on, and then only colour sequences (ESC [ digits
// and ';' m) — a stranger's script must not recolour, move or retitle a terminal.
#include <fuzzer/FuzzedDataProvider.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lint/core/finding.h"
#include "lint/reader/source_map.h"
#include "lint/report/reporter.h"
#include "lint/rules/rule_set.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

using gpulint::Finding;
using gpulint::SourceSpan;

// Strict UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF), written here rather
// than taken from lint/report/safe_text.h so that the check does not trust the code it checks.
bool StrictUtf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    size_t extra;
    unsigned min;
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      extra = 1, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
      extra = 2, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3, min = 0x10000;
    } else {
      return false;
    }
    if (text.size() - i <= extra) return false;
    unsigned code = c & (0x3F >> extra);
    for (size_t k = 1; k <= extra; ++k) {
      const unsigned char next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) return false;
      code = (code << 6) | (next & 0x3F);
    }
    if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return false;
    i += extra + 1;
  }
  return true;
}

std::string Bytes(FuzzedDataProvider& in, size_t max) {
  return in.ConsumeRandomLengthString(max);
}

SourceSpan PickSpan(FuzzedDataProvider& in, const std::vector<std::string>& paths) {
  SourceSpan span;
  span.path = in.ConsumeBool() ? paths[in.ConsumeIntegralInRange<size_t>(0, paths.size() - 1)]
                               : Bytes(in, 32);
  // Lines, columns and lengths as a file of up to 8 MiB (gpulint's cap) can hold them, and 0.
  span.line = in.ConsumeIntegralInRange<int>(0, 1 << 23);
  if (in.ConsumeBool()) span.line = in.ConsumeIntegralInRange<int>(0, 8);
  span.col = in.ConsumeIntegralInRange<int>(0, 1 << 23);
  if (in.ConsumeBool()) span.col = in.ConsumeIntegralInRange<int>(0, 80);
  span.offset = in.ConsumeIntegralInRange<size_t>(0, 1 << 23);
  span.length = in.ConsumeIntegralInRange<size_t>(0, in.ConsumeBool() ? 1 << 23 : 16);
  return span;
}

Finding PickFinding(FuzzedDataProvider& in, const std::vector<std::string>& paths) {
  Finding f;
  static const char* kIds[] = {"ACME101", "ACME001", "GL101"};
  f.rule = in.ConsumeBool() ? kIds[in.ConsumeIntegralInRange<int>(0, 2)] : Bytes(in, 16);
  f.name = in.ConsumeBool() ? "out-of-memory" : Bytes(in, 16);
  f.severity = static_cast<gpulint::Severity>(in.ConsumeIntegralInRange<int>(0, 2));
  f.message = Bytes(in, 128);
  f.span = PickSpan(in, paths);
  for (int i = in.ConsumeIntegralInRange<int>(0, 2); i > 0; --i)
    f.related.push_back(PickSpan(in, paths));
  for (int i = in.ConsumeIntegralInRange<int>(0, 2); i > 0; --i) {
    gpulint::Fix fix;
    fix.description = Bytes(in, 32);
    fix.safe = in.ConsumeBool();
    for (int e = in.ConsumeIntegralInRange<int>(0, 2); e > 0; --e)
      fix.edits.push_back({PickSpan(in, paths), Bytes(in, 32)});
    f.fixes.push_back(std::move(fix));
  }
  f.url = in.ConsumeBool() ? "" : Bytes(in, 32);
  f.command_line = in.ConsumeIntegralInRange<int>(0, 1 << 23);
  return f;
}

void CheckJson(const std::string& format, const std::string& out) {
  nlohmann::json parsed = nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
  FUZZ_CHECK(!parsed.is_discarded(), "%s output is not JSON:\n%s", format.c_str(), out.c_str());
}

void CheckNoEsc(const std::string& format, const std::string& out, bool color) {
  for (size_t at = out.find('\x1b'); at != std::string::npos; at = out.find('\x1b', at + 1)) {
    FUZZ_CHECK(color, "%s output holds ESC at %zu without colour", format.c_str(), at);
    size_t end = at + 1;
    bool sgr = end < out.size() && out[end] == '[';
    for (++end; sgr && end < out.size() &&
                (std::isdigit(static_cast<unsigned char>(out[end])) || out[end] == ';');
         ++end) {
    }
    FUZZ_CHECK(sgr && end < out.size() && out[end] == 'm',
               "%s output holds ESC at %zu that is not a colour", format.c_str(), at);
  }
}

void CheckFormat(const std::string& format, const std::string& out, bool color) {
  if (format == "json" || format == "sarif" || format == "gitlab" || format == "rdjson") {
    CheckJson(format, out);
  } else if (format == "jsonl" || format == "rdjsonl") {
    size_t start = 0;
    while (start < out.size()) {
      size_t end = out.find('\n', start);
      if (end == std::string::npos) end = out.size();
      CheckJson(format, out.substr(start, end - start));
      start = end + 1;
    }
  } else if (format == "checkstyle" || format == "junit") {
    FUZZ_CHECK(StrictUtf8(out), "%s output is not UTF-8", format.c_str());
    for (char c : out)
      FUZZ_CHECK(static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n' || c == '\r',
                 "%s output holds control byte 0x%02x", format.c_str(),
                 static_cast<unsigned char>(c));
  } else {
    CheckNoEsc(format, out, color);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Two rules with docs (SARIF lists them), not the built-in pack: rendering every rule's docs
  // for each input made this target 20 times slower and found nothing more.
  static const gpulint::RuleSet* rules = [] {
    auto* set = new gpulint::RuleSet();
    std::string error;
    const char* pack = R"toml([[rule]]
id = "ACME101"
name = "out-of-memory"
category = "memory"
severity = "error"
when = "est.total_gib > gpu.usable_gib"
message = "needs {est.total_gib:.1f} GiB, the GPU has {gpu.usable_gib:.1f} GiB"
[rule.doc]
what = "The job does not fit: <b> & \"quotes\" \u001b[31m"
why = "why\nnewline"
example = "torchrun train.py --micro-batch 64"
instead = "torchrun train.py --micro-batch 4"
fix = "fix"

[[rule]]
id = "ACME001"
name = "team-rule"
category = "team"
severity = "info"
when = "written(max_model_len)"
message = "a\tb \u0007 é"
[rule.doc]
what = "w"
why = "y"
example = "vllm serve m --max-model-len 8192"
instead = "vllm serve m"
fix = "f"
)toml";
    if (!set->AddText(pack, "team.toml", &error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      __builtin_trap();
    }
    return set;
  }();
  FuzzedDataProvider in(data, size);
  // Files with text (so that reporters show source lines), and paths no file was read for.
  std::vector<std::unique_ptr<gpulint::SourceMap>> sources;
  std::vector<std::string> paths;
  gpulint::ReportInput input;
  input.rules = rules;
  input.color = in.ConsumeBool();
  input.version = "0.1.0";
  for (int i = in.ConsumeIntegralInRange<int>(1, 3); i > 0; --i) {
    std::string path = in.ConsumeBool() ? "jobs/run" + std::to_string(i) + ".sh" : Bytes(in, 24);
    paths.push_back(path);
    auto map = std::make_unique<gpulint::SourceMap>();
    if (in.ConsumeBool()) map->Add(path, Bytes(in, 512));
    sources.push_back(std::move(map));
  }
  for (size_t i = 0; i < paths.size(); ++i) {
    gpulint::ReportFile file;
    file.path = paths[i];
    file.sources = sources[i]->size() > 0 ? sources[i].get() : nullptr;
    for (int n = in.ConsumeIntegralInRange<int>(0, 4); n > 0; --n)
      file.findings.push_back(PickFinding(in, paths));
    std::sort(file.findings.begin(), file.findings.end(), gpulint::FindingLess);
    input.files.push_back(std::move(file));
  }
  for (const gpulint::ReporterEntry& entry : gpulint::Reporters()) {
    std::string out = entry.render(input);
    CheckFormat(entry.name, out, input.color);
    if (entry.render_file) {
      std::string parts;
      for (const gpulint::ReportFile& file : input.files) parts += entry.render_file(input, file);
      parts += entry.render_summary(input);
      FUZZ_CHECK(parts == out, "%s renders differently file by file", entry.name);
    }
  }
  return 0;
}
