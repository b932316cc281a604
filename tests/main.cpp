// Catch2 v2 main for the whole suite; ctest runs each TEST_CASE separately (catch_discover_tests).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
