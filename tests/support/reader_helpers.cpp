#include "tests/support/reader_helpers.h"

#include <fmt/format.h>

#include "tests/support/process.h"

namespace gpulint::testing {

const FrameworkMaps& TestMaps() {
  static const FrameworkMaps maps;
  return maps;
}

ReadResult ReadFixture(const std::string& relative, SourceMap* sources, const ReadOptions& base) {
  ReadOptions options = base;
  if (!options.read_file) options.read_file = FileSystemReader();
  std::string path = SourcePath(relative);
  return ReadScript(path, ReadWholeFile(path), TestMaps(), options, sources);
}

ReadResult ReadText(const std::string& text, SourceMap* sources, const ReadOptions& base) {
  return ReadScript("test.sh", text, TestMaps(), base, sources);
}

std::string Dump(const Workload& workload, const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += " ";
    const Setting* setting = workload.Find(name);
    if (!setting) {
      out += name + "=?";
      continue;
    }
    char origin = 'l';
    switch (setting->origin) {
      case Origin::kLiteral: origin = 'l'; break;
      case Origin::kVariableDefault: origin = 'v'; break;
      case Origin::kConfigFile: origin = 'c'; break;
      case Origin::kFrameworkDefault: origin = 'd'; break;
      case Origin::kDirective: origin = 'x'; break;
      case Origin::kCommandLine: origin = 'o'; break;
    }
    std::string value = setting->value.kind == Value::Kind::kNone ? "?" : setting->value.ToString();
    if (setting->span.valid()) {
      out += fmt::format("{}={}@{}:{}({})", name, value, setting->span.line, setting->span.col,
                         origin);
    } else {
      out += fmt::format("{}={}({})", name, value, origin);
    }
  }
  return out;
}

const Workload* Role(const RunConfig& config, const std::string& role) {
  for (const Workload& w : config.workloads)
    if (w.role == role) return &w;
  return nullptr;
}

}  // namespace gpulint::testing
