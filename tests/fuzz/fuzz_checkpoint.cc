// libFuzzer target for what gpulint reads of a model folder's weights (lint/catalog/
// checkpoint_size): a safetensors header, a model.safetensors.index.json, or a whole
// model.safetensors file, as a stranger's repository may hold them. The first byte picks which;
// the folder is a fresh temporary one per input, holding only what the input wrote and
// "model-00001-of-00001.safetensors", a valid file. Properties: no crash, hang or sanitizer
// report; a failure says why; what is read is finite and not negative; nothing outside the
// folder is read (an index naming "../x" or "/etc/passwd" is refused or skipped).
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "lint/catalog/checkpoint_size.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

namespace fs = std::filesystem;

void WriteFile(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// A safetensors file: the 8-byte little-endian header length, the header, the data.
std::string Safetensors(const std::string& header, size_t data_bytes) {
  std::string out;
  uint64_t length = header.size();
  for (int i = 0; i < 8; ++i) out += static_cast<char>((length >> (8 * i)) & 0xff);
  return out + header + std::string(data_bytes, '\0');
}

void CheckSize(const gpulint::CheckpointSize& size) {
  FUZZ_CHECK(std::isfinite(size.bytes) && size.bytes >= 0, "bytes %f", size.bytes);
  FUZZ_CHECK(std::isfinite(size.elements) && size.elements >= 0, "elements %f", size.elements);
  FUZZ_CHECK(size.files >= 0, "files %d", size.files);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const int mode = data[0] % 3;
  std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string problem;
  if (mode == 0) {
    gpulint::CheckpointSize read;
    if (gpulint::AddSafetensorsHeader(bytes, "model.safetensors", &read, &problem))
      CheckSize(read);
    else
      FUZZ_CHECK(!problem.empty(), "a refused header says nothing");
    return 0;
  }
  static const fs::path root = [] {
    char pattern[] = "/tmp/gpulint-fuzz-checkpoint-XXXXXX";
    const char* made = ::mkdtemp(pattern);
    if (!made) std::abort();
    return fs::path(made);
  }();
  const fs::path dir = root / "model";
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir);
  WriteFile(dir / "model-00001-of-00001.safetensors",
            Safetensors(R"({"w":{"dtype":"BF16","shape":[2,2],"data_offsets":[0,8]}})", 8));
  WriteFile(dir / (mode == 1 ? "model.safetensors.index.json" : "model.safetensors"), bytes);
  auto read = gpulint::ReadCheckpointSize(dir.string(), &problem);
  if (read) CheckSize(*read);
  return 0;
}
