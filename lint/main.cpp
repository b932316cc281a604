// The gpulint executable: everything happens in RunCli so that tests can call it in-process.
#include "lint/cli/cli.h"

int main(int argc, char** argv) { return gpulint::RunCli(argc, argv); }
