// The gpulint executable: everything happens in RunCli so that tests can call it in-process.
#include "lint/cli/cli.h"
#include "lint/cli/stderr_filter.h"

int main(int argc, char** argv) {
  gpulint::FilterStderrControlBytes();
  return gpulint::RunCli(argc, argv);
}
