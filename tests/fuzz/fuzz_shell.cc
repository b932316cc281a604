// libFuzzer target for the shell reader (ReadScript, no file system): any bytes read as a
// script without a crash, a hang or a sanitizer report, and every span the reader records for a
// setting, an unresolved or invalid value or a note lies inside the file it names, at the line
// and column its offset has there (the reporters and the tuner's edits trust both).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "lint/core/source_span.h"
#include "lint/reader/framework_map.h"
#include "lint/reader/script_reader.h"
#include "lint/reader/source_map.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

using gpulint::SourceMap;
using gpulint::SourceSpan;

// Line starts of each file read, made once per input: a script with thousands of findings
// must not be walked from its start for each (that timed out).
class Lines {
 public:
  explicit Lines(const SourceMap& sources) : sources_(sources) {}
  void At(int file, size_t offset, int* line, int* col) {
    std::vector<size_t>& starts = starts_[file];
    if (starts.empty()) {
      const std::string& text = sources_.text(file);
      starts.push_back(0);
      for (size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n') starts.push_back(i + 1);
    }
    size_t index = std::upper_bound(starts.begin(), starts.end(), offset) - starts.begin() - 1;
    *line = static_cast<int>(index) + 1;
    *col = static_cast<int>(offset - starts[index]) + 1;
  }

 private:
  const SourceMap& sources_;
  std::map<int, std::vector<size_t>> starts_;
};

void CheckSpan(const SourceMap& sources, Lines& lines, const SourceSpan& span, const char* what) {
  if (!span.valid()) return;
  int file = sources.Find(span.path);
  FUZZ_CHECK(file >= 0, "%s span names a file that was not read: %s", what, span.path.c_str());
  const std::string& text = sources.text(file);
  FUZZ_CHECK(span.offset <= text.size() && span.length <= text.size() - span.offset,
             "%s span [%zu, +%zu) runs past the end (%zu bytes)", what, span.offset, span.length,
             text.size());
  int line = 0, col = 0;
  lines.At(file, span.offset, &line, &col);
  FUZZ_CHECK(line == span.line && col == span.col, "%s span at %d:%d, its offset is at %d:%d", what,
             span.line, span.col, line, col);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const gpulint::FrameworkMaps maps;
  std::string text(reinterpret_cast<const char*>(data), size);
  SourceMap sources;
  gpulint::ReadOptions options;  // no read_file: the fuzzer must not read the disk
  gpulint::ReadResult result = gpulint::ReadScript("fuzz.sh", text, maps, options, &sources);
  if (!result.ok) return 0;
  const gpulint::RunConfig& config = result.config;
  Lines lines(sources);
  for (const gpulint::Workload& workload : config.workloads) {
    CheckSpan(sources, lines, workload.command_span, "command");
    for (const auto& [name, setting] : workload.settings)
      CheckSpan(sources, lines, setting.span, "setting");
  }
  for (const gpulint::Unresolved& unresolved : config.unresolved)
    CheckSpan(sources, lines, unresolved.span, "unresolved");
  for (const gpulint::InvalidValue& invalid : config.invalid)
    CheckSpan(sources, lines, invalid.span, "invalid");
  for (const gpulint::ReaderNote& note : config.notes) CheckSpan(sources, lines, note.span, "note");
  return 0;
}
