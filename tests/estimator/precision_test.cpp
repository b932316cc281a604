// Optimizer states per parameter, as the libraries that allocate them lay them out.
#include <catch2/catch.hpp>

#include "estimator/precision.h"

using namespace gpulint::est;

namespace {

double StateBytes(const char* name, Precision precision = Precision::kAmpBf16) {
  Optimizer optimizer;
  REQUIRE(ParseOptimizer(name, &optimizer));
  return OptimizerStateBytes(optimizer, precision, 4096);
}

}  // namespace

TEST_CASE("torch AdamW keeps two moments in the state dtype", "[estimator][precision]") {
  CHECK(StateBytes("adamw_torch_fused") == 8);
  CHECK(StateBytes("adamw_torch", Precision::kBf16) == 4);
  Optimizer adamw;
  CHECK(adamw.name == std::string("adamw"));  // the default is AdamW
  CHECK(adamw.foreach_temporary);
}

TEST_CASE("a fused AdamW steps in place, the foreach one makes a temporary",
          "[estimator][precision]") {
  for (const char* name : {"adamw", "adamw_torch", "adamw_hf"}) {
    Optimizer optimizer;
    REQUIRE(ParseOptimizer(name, &optimizer));
    CHECK(optimizer.foreach_temporary);
  }
  for (const char* name : {"adamw_torch_fused", "fused_adam", "adamw_apex_fused"}) {
    Optimizer optimizer;
    REQUIRE(ParseOptimizer(name, &optimizer));
    CHECK_FALSE(optimizer.foreach_temporary);
    CHECK(optimizer.moments == 2);
  }
}

TEST_CASE("8-bit states carry an fp32 scale per 256 elements", "[estimator][precision]") {
  // bitsandbytes (optimizer.py:518-529) and torchao's AdamW8bit alike.
  CHECK(StateBytes("adamw_bnb_8bit") == Approx(2 * (1 + 4.0 / 256)));
  CHECK(StateBytes("adamw_torch_8bit") == Approx(2 * (1 + 4.0 / 256)));
  // Not the run's dtype: a pure-bf16 run keeps the same 8-bit states.
  CHECK(StateBytes("adamw_8bit", Precision::kBf16) == StateBytes("adamw_8bit"));
  // torchao's 4-bit: two codes per byte, a scale per 128.
  CHECK(StateBytes("adamw_torch_4bit") == Approx(2 * (0.5 + 4.0 / 128)));
}

TEST_CASE("bitsandbytes' 32-bit states are fp32 even for bf16 weights", "[estimator][precision]") {
  CHECK(StateBytes("paged_adamw_32bit", Precision::kBf16) == 8);
  CHECK(StateBytes("lion_32bit", Precision::kBf16) == 4);  // one state
  CHECK(StateBytes("lion_8bit") == Approx(1 + 4.0 / 256));
  CHECK(StateBytes("ademamix") == 12);  // m1, m2 and nu
}

TEST_CASE("paged optimizers are marked, and only torch's AdamW makes a step temporary",
          "[estimator][precision]") {
  Optimizer paged;
  REQUIRE(ParseOptimizer("paged_adamw_8bit", &paged));
  CHECK(paged.paged);
  Optimizer eight;
  REQUIRE(ParseOptimizer("adamw_8bit", &eight));
  CHECK_FALSE(eight.paged);
  CHECK_FALSE(eight.foreach_temporary);
}

TEST_CASE("one state or none", "[estimator][precision]") {
  CHECK(StateBytes("rmsprop") == 4);
  CHECK(StateBytes("adagrad", Precision::kBf16) == 2);
  CHECK(StateBytes("sgd") == 0);
  // Adafactor's factored second moment: (h + k) per h x k matrix.
  CHECK(StateBytes("adafactor") == Approx(4 * 2.0 / 4096));
}

TEST_CASE("a name whose states are not known is refused, not guessed",
          "[estimator][precision]") {
  Optimizer optimizer;
  CHECK_FALSE(ParseOptimizer("galore_adamw", &optimizer));
  CHECK_FALSE(ParseOptimizer("muon", &optimizer));
  CHECK_FALSE(ParseOptimizer("adamw ", &optimizer));
  CHECK_FALSE(ParseOptimizer("", &optimizer));
}
