// libFuzzer target for the YAML/JSON config reader (ReadConfigEntries, YamlComments): any bytes
// read without a crash, a hang or a sanitizer report; an entry marked exact holds the very bytes
// of its range (the tuner rewrites those bytes), and every comment starts at a '#'.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lint/reader/config_file.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<gpulint::ConfigEntry> entries;
  std::string error;
  if (gpulint::ReadConfigEntries(text, &entries, &error)) {
    for (const gpulint::ConfigEntry& entry : entries) {
      if (!entry.exact) continue;
      FUZZ_CHECK(entry.offset <= text.size() && entry.length <= text.size() - entry.offset,
                 "entry %s [%zu, +%zu) runs past the end (%zu bytes)", entry.key.c_str(),
                 entry.offset, entry.length, text.size());
      FUZZ_CHECK(text.substr(entry.offset, entry.length) == entry.value,
                 "exact entry %s = '%s' is not the file's bytes", entry.key.c_str(),
                 entry.value.c_str());
    }
  } else {
    FUZZ_CHECK(!error.empty(), "a failed read says nothing");
  }
  for (const auto& [offset, comment] : gpulint::YamlComments(text))
    FUZZ_CHECK(offset < text.size() && text[offset] == '#', "comment at %zu is not a '#'", offset);
  return 0;
}
