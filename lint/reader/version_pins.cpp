#include "lint/reader/version_pins.h"

#include <cctype>
#include <string_view>

namespace gpulint {
namespace {

// Each engine's package name and the image repository its releases are tagged in.
struct EngineNames {
  std::string_view package, image;
};
constexpr EngineNames kEngines[] = {{"vllm", "vllm/vllm-openai:"}, {"sglang", "lmsysorg/sglang:"}};

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

// Characters of a specifier list as pip reads it ("==0.6.3", ">=0.8.5,<=0.12.0", "~=0.6.*").
bool IsSpecChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::string_view(".,<>=!~*+").find(c) !=
                                                            std::string_view::npos;
}

// An image tag names the engine's release: "vllm/vllm-openai:v0.6.3", "lmsysorg/sglang:v0.4.6".
// `start` is just past the image's "repository:".
bool ImageTag(const std::string& text, size_t start, VersionPin* pin) {
  size_t end = start;
  while (end < text.size() && (IsNameChar(text[end]) || text[end] == '+')) ++end;
  if (end == start) return false;
  size_t digit = start + (text[start] == 'v' ? 1 : 0);
  if (digit >= end || !std::isdigit(static_cast<unsigned char>(text[digit]))) return false;
  pin->spec = text.substr(start, end - start);
  pin->offset = start;
  return true;
}

// A line that is a comment ("# vllm==0.8.4" in verl's requirements.txt) installs nothing.
bool InComment(const std::string& text, size_t at) {
  size_t line = text.rfind('\n', at);
  line = line == std::string::npos ? 0 : line + 1;
  size_t first = text.find_first_not_of(" \t", line);
  return first < at && text[first] == '#';
}

}  // namespace

bool IsVersionedEngine(const std::string& engine) {
  for (const EngineNames& e : kEngines)
    if (engine == e.package) return true;
  return false;
}

std::vector<VersionPin> FindVersionPins(const std::string& text,
                                        const std::vector<std::string>& packages) {
  std::vector<EngineNames> names_of(std::begin(kEngines), std::end(kEngines));
  for (const std::string& package : packages)
    if (!IsVersionedEngine(package) && !package.empty()) names_of.push_back({package, ""});
  std::vector<VersionPin> pins;
  for (const EngineNames& names : names_of) {
    // The images: "vllm/vllm-openai:TAG", "lmsysorg/sglang:TAG".
    for (size_t at = names.image.empty() ? std::string::npos : text.find(names.image);
         at != std::string::npos; at = text.find(names.image, at + 1)) {
      VersionPin pin;
      pin.package = std::string(names.package);
      if (!InComment(text, at) && ImageTag(text, at + names.image.size(), &pin))
        pins.push_back(pin);
    }
    const std::string_view engine = names.package;
    for (size_t at = text.find(engine); at != std::string::npos;
         at = text.find(engine, at + engine.size())) {
      size_t end = at + engine.size();
      if (InComment(text, at)) continue;
      VersionPin pin;
      pin.package = std::string(engine);
      // A tag that lists its components: "app-verl0.5-vllm0.9.1-mcore0.12.2".
      if (at > 0 && text[at - 1] == '-' && end < text.size() &&
          std::isdigit(static_cast<unsigned char>(text[end]))) {
        size_t stop = end;
        while (stop < text.size() &&
               (std::isdigit(static_cast<unsigned char>(text[stop])) || text[stop] == '.'))
          ++stop;
        while (stop > end && text[stop - 1] == '.') --stop;
        pin.spec = text.substr(end, stop - end);
        pin.offset = end;
        pins.push_back(pin);
        continue;
      }
      // A package requirement: the name stands alone ("vllm-ascend" is another package).
      if (at > 0 && (IsNameChar(text[at - 1]) || text[at - 1] == '/')) continue;
      if (end < text.size() && (IsNameChar(text[end]) || text[end] == '/')) continue;
      size_t cursor = end;
      if (cursor < text.size() && text[cursor] == '[') {  // extras: "sglang[all]"
        size_t close = text.find(']', cursor);
        if (close == std::string::npos || close - cursor > 64) continue;
        cursor = close + 1;
      }
      while (cursor < text.size() && text[cursor] == ' ') ++cursor;
      if (cursor >= text.size() || std::string_view("=<>~!").find(text[cursor]) ==
                                       std::string_view::npos)
        continue;
      size_t stop = cursor;
      // "vllm >= 0.8.5, <= 0.12.0": a space may follow an operator or a comma.
      while (stop < text.size() &&
             (IsSpecChar(text[stop]) ||
              (text[stop] == ' ' && std::string_view(",<>=~!").find(text[stop - 1]) !=
                                        std::string_view::npos)))
        ++stop;
      while (stop > cursor && text[stop - 1] == ' ') --stop;
      pin.spec = text.substr(cursor, stop - cursor);
      pin.offset = cursor;
      pins.push_back(pin);
    }
  }
  return pins;
}

}  // namespace gpulint
