// libFuzzer target for the Python reader (ReadPython, PythonComments): any bytes read as Python
// source without a crash, a hang or a sanitizer report, and every range it records (a value's
// source, a call's callee, a comment's '#') lies inside the source; a value marked exact holds
// the very bytes of its range (the tuner rewrites those bytes).
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "lint/reader/python_reader.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

using gpulint::PyValue;

// Values nest (dicts in calls in lists); the work list keeps a deep input off the stack.
void CheckValues(std::string_view source, std::vector<const PyValue*> pending) {
  while (!pending.empty()) {
    const PyValue* value = pending.back();
    pending.pop_back();
    FUZZ_CHECK(value->offset <= source.size() && value->length <= source.size() - value->offset,
               "value [%zu, +%zu) runs past the end (%zu bytes)", value->offset, value->length,
               source.size());
    if (value->exact &&
        (value->kind == PyValue::Kind::kNumber || value->kind == PyValue::Kind::kString))
      FUZZ_CHECK(source.substr(value->offset, value->length) == value->text,
                 "exact value '%s' is not the source's bytes", value->text.c_str());
    for (const gpulint::PyEntry& entry : value->entries) pending.push_back(&entry.value);
    for (const PyValue& item : value->items) pending.push_back(&item);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::set<std::string> interesting = {"LLM",
                                                    "from_pretrained",
                                                    "BitsAndBytesConfig",
                                                    "LoraConfig",
                                                    "TrainingArguments",
                                                    "SFTConfig",
                                                    "AsyncEngineArgs",
                                                    "Engine"};
  std::string_view source(reinterpret_cast<const char*>(data), size);
  gpulint::PyModule module = gpulint::ReadPython(source, interesting);
  std::vector<const PyValue*> values;
  for (const auto& [name, value] : module.constants) values.push_back(&value);
  for (const gpulint::PyArgument& argument : module.arguments)
    values.push_back(&argument.default_value);
  for (const gpulint::PyCall& call : module.calls) {
    FUZZ_CHECK(call.offset <= source.size(), "call at %zu past the end", call.offset);
    for (const PyValue& value : call.positional) values.push_back(&value);
    for (const gpulint::PyEntry& entry : call.keywords) values.push_back(&entry.value);
  }
  CheckValues(source, std::move(values));
  for (const auto& [offset, text] : gpulint::PythonComments(source))
    FUZZ_CHECK(offset < source.size() && source[offset] == '#', "comment at %zu is not a '#'",
               offset);
  return 0;
}
