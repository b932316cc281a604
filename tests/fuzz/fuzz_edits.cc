// libFuzzer target for the edit layer. A random value is quoted by QuoteValue for the place a
// fix writes it — a shell assignment or a flag's argument (unquoted, inside "..." or '...'), a
// Hydra override, a YAML value (plain, "..." or '...'), a JSON string, a Python keyword
// argument — and the text is read back with gpulint's own readers: the value must read back
// exactly (bytes a format cannot carry are left out of the value: NUL everywhere; in YAML and
// Python, which read text, invalid UTF-8 too; control characters inside YAML's '...'). Then random
// non-overlapping edits are applied to random text with ApplyEdits: the result is the edits spliced
// in order, an empty edit set is the identity, an edit repeated counts once, overlapping edits are
// refused, and reading the result as a script does not crash.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lint/core/finding.h"
#include "lint/reader/config_file.h"
#include "lint/reader/framework_map.h"
#include "lint/reader/python_reader.h"
#include "lint/reader/script_reader.h"
#include "lint/reader/shell_evaluator.h"
#include "lint/reader/source_map.h"
#include "lint/report/safe_text.h"
#include "tests/fuzz/fuzz_check.h"
#include "tuner/edits.h"
#include "tuner/quote.h"

namespace {

using gpulint::TextKind;

// Where a fix writes a value: the text with "old" in the value's place.
struct Place {
  TextKind kind;
  const char* text;
  enum class Read { kVariable, kArgument, kOverride, kConfig, kPythonKeyword } read;
};

constexpr Place kPlaces[] = {
    {TextKind::kShell, "X=old\n", Place::Read::kVariable},
    {TextKind::kShell, "X=\"old\"\n", Place::Read::kVariable},
    {TextKind::kShell, "X='old'\n", Place::Read::kVariable},
    {TextKind::kShell, "cmd --flag old\n", Place::Read::kArgument},
    {TextKind::kShell, "cmd --flag \"old\"\n", Place::Read::kArgument},
    {TextKind::kShell, "cmd --flag 'old' &\n", Place::Read::kArgument},
    {TextKind::kShell, "cmd key=old\n", Place::Read::kOverride},
    {TextKind::kYaml, "key: old\n", Place::Read::kConfig},
    {TextKind::kYaml, "key: \"old\"\n", Place::Read::kConfig},
    {TextKind::kYaml, "key: 'old'\n", Place::Read::kConfig},
    {TextKind::kJson, "{\"key\": \"old\"}", Place::Read::kConfig},
    {TextKind::kPython, "LLM(key=\"old\")\n", Place::Read::kPythonKeyword},
    {TextKind::kPython, "LLM(key='old')\n", Place::Read::kPythonKeyword},
};

// What `text` reads back as at `place`; false when it does not read at all.
bool ReadBack(const Place& place, const std::string& text, std::string* value) {
  switch (place.read) {
    case Place::Read::kVariable:
    case Place::Read::kArgument:
    case Place::Read::kOverride: {
      gpulint::SourceMap sources;
      int file = sources.Add("/job/run.sh", text);
      gpulint::ShellProgram program = gpulint::EvaluateShell(sources, file, {});
      if (place.read == Place::Read::kVariable) {
        const gpulint::Variable* x = program.final_env.Get("X");
        if (!x) return false;
        *value = x->Value().Str();
        return true;
      }
      if (program.commands.size() != 1) return false;
      const auto& argv = program.commands[0].argv;
      size_t index = place.read == Place::Read::kArgument ? 2 : 1;
      if (argv.size() != index + 1) return false;
      *value = argv[index].Str();
      if (place.read == Place::Read::kOverride) {
        if (value->rfind("key=", 0) != 0) return false;
        value->erase(0, 4);
      }
      return true;
    }
    case Place::Read::kConfig: {
      std::vector<gpulint::ConfigEntry> entries;
      std::string error;
      if (!gpulint::ReadConfigEntries(text, &entries, &error)) return false;
      for (const gpulint::ConfigEntry& entry : entries)
        if (entry.key == "key" && !entry.is_null) {
          *value = entry.value;
          return true;
        }
      return false;
    }
    case Place::Read::kPythonKeyword: {
      gpulint::PyModule module = gpulint::ReadPython(text, {"LLM"});
      if (module.calls.size() != 1) return false;
      for (const gpulint::PyEntry& entry : module.calls[0].keywords)
        if (entry.key == "key" && entry.value.kind == gpulint::PyValue::Kind::kString) {
          *value = entry.value.text;
          return true;
        }
      return false;
    }
  }
  return false;
}

void CheckQuoting(FuzzedDataProvider& in) {
  const Place& place = kPlaces[in.ConsumeIntegralInRange<size_t>(0, std::size(kPlaces) - 1)];
  std::string value = in.ConsumeRandomLengthString(256);
  value.erase(std::remove(value.begin(), value.end(), '\0'), value.end());
  if ((place.kind == TextKind::kYaml || place.kind == TextKind::kPython) &&
      gpulint::ValidUtf8(value) != value)
    return;
  std::string text = place.text;
  // YAML's '...' has no escapes: it folds a line break into a space and cannot hold other
  // control characters. A fix never writes one (values are numbers, names, dtypes); the other
  // YAML places carry them.
  if (place.kind == TextKind::kYaml && text.find('\'') != std::string::npos &&
      std::any_of(value.begin(), value.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
    return;
  size_t offset = text.find("old");
  std::string quoted = gpulint::QuoteValue(place.kind, text, offset, 3, value);
  text.replace(offset, 3, quoted);
  std::string read;
  FUZZ_CHECK(ReadBack(place, text, &read), "'%s' does not read back from:\n%s", value.c_str(),
             text.c_str());
  FUZZ_CHECK(read == value, "'%s' reads back as '%s' from:\n%s", value.c_str(), read.c_str(),
             text.c_str());
}

void CheckEdits(FuzzedDataProvider& in) {
  std::string text = in.ConsumeRandomLengthString(4096);
  std::vector<size_t> cuts;
  const size_t count = in.ConsumeIntegralInRange<size_t>(0, 16);
  for (size_t i = 0; i < 2 * count; ++i)
    cuts.push_back(in.ConsumeIntegralInRange<size_t>(0, text.size()));
  std::sort(cuts.begin(), cuts.end());
  std::vector<gpulint::Edit> edits;
  std::string expected;
  size_t cursor = 0;
  for (size_t i = 0; i + 1 < cuts.size(); i += 2) {
    gpulint::Edit edit;
    edit.span.path = "run.sh";
    edit.span.line = 1;
    edit.span.offset = cuts[i];
    edit.span.length = cuts[i + 1] - cuts[i];
    edit.text = in.ConsumeRandomLengthString(64);
    // Two insertions at one place have no order: keep the first.
    if (!edits.empty() && edits.back().span.offset == edit.span.offset &&
        edits.back().span.length == 0 && edit.span.length == 0)
      continue;
    expected += text.substr(cursor, edit.span.offset - cursor) + edit.text;
    cursor = edit.span.end();
    edits.push_back(edit);
  }
  expected += text.substr(cursor);
  std::string out, error;
  FUZZ_CHECK(gpulint::ApplyEdits(text, {}, &out, &error) && out == text,
             "an empty edit set changes the text");
  std::vector<gpulint::Edit> shuffled(edits.rbegin(), edits.rend());
  if (!edits.empty()) shuffled.push_back(edits.front());  // the same edit twice counts once
  FUZZ_CHECK(gpulint::ApplyEdits(text, shuffled, &out, &error), "edits refused: %s", error.c_str());
  FUZZ_CHECK(out == expected, "edits spliced wrongly");
  if (!edits.empty() && edits.front().span.length > 0) {
    gpulint::Edit overlapping = edits.front();
    overlapping.span.offset += 1;
    overlapping.span.length -= 1;
    overlapping.text += "x";
    std::vector<gpulint::Edit> clash = {edits.front(), overlapping};
    if (overlapping.span.length > 0)
      FUZZ_CHECK(!gpulint::ApplyEdits(text, clash, &out, &error), "overlapping edits applied");
  }
  static const gpulint::FrameworkMaps maps;
  gpulint::SourceMap sources;
  gpulint::ReadScript("/job/run.sh", expected, maps, {}, &sources);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  CheckQuoting(in);
  CheckEdits(in);
  return 0;
}
