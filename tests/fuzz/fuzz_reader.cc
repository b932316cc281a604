// libFuzzer target for the readers: any bytes must read without a crash, a hang or a sanitizer
// report — as a shell script, as Python source and as a YAML/JSON config file. Built by
// `make fuzz` / `make test` with clang (-fsanitize=fuzzer).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lint/reader/config_file.h"
#include "lint/reader/framework_map.h"
#include "lint/reader/python_reader.h"
#include "lint/reader/script_reader.h"
#include "lint/reader/source_map.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const gpulint::FrameworkMaps maps;
  std::string text(reinterpret_cast<const char*>(data), size);
  gpulint::SourceMap sources;
  gpulint::ReadOptions options;  // no file system: the fuzzer must not read the disk
  gpulint::ReadScript("fuzz.sh", text, maps, options, &sources);
  gpulint::ReadPython(text, {"LLM", "from_pretrained", "BitsAndBytesConfig"});
  std::vector<gpulint::ConfigEntry> entries;
  std::string error;
  gpulint::ReadConfigEntries(text, &entries, &error);
  return 0;
}
