// libFuzzer target for baselines (ParseBaseline): `lint --baseline FILE` reads a file from the
// repository. Properties: no crash, exception, hang or sanitizer report; a refused file says
// why; every key read is "path|fingerprint".
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "lint/core/baseline.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::set<std::string> keys;
  std::string error;
  if (!gpulint::ParseBaseline(text, "baseline.json", &keys, &error)) {
    FUZZ_CHECK(!error.empty(), "a refused baseline says nothing");
    return 0;
  }
  for (const std::string& key : keys)
    FUZZ_CHECK(key.find('|') != std::string::npos, "a key without '|': %s", key.c_str());
  return 0;
}
