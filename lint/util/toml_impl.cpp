// The one translation unit that compiles toml++'s implementation into gpulint (every other file
// sees declarations only, TOML_HEADER_ONLY=0). Linking it in rather than Debian's shared
// libtomlplusplus saves the dynamic loader's work at every start: gpulint runs as a pre-commit
// hook, where start-up time is what users feel.
#define TOML_IMPLEMENTATION
#include <toml++/toml.h>
