// Memory per GPU when workloads share it, on hand-set estimates (GiB as plain numbers).
#include "lint/analysis/colocation.h"

#include <catch2/catch.hpp>

using namespace gpulint;

namespace {

Workload On(const std::string& role, int process, bool shares_process = false) {
  Workload w;
  w.role = role;
  w.process = process;
  w.devices = {0};
  w.shares_process_gpus = shares_process;
  return w;
}

WorkloadEstimate Estimate(double total, double reserved, double persistent) {
  WorkloadEstimate e;
  e.breakdown.emplace();
  e.breakdown->total = total;
  e.breakdown->torch_reserved = reserved;
  e.persistent_bytes = persistent;
  return e;
}

}  // namespace

TEST_CASE("a reference policy in the trainer's process adds its weights at the trainer's peak",
          "[analysis][colocation]") {
  // Trainer: peak 60 (context 2, reserved 58), holding 40 between steps. Reference: weights 8,
  // its forward reserves 30 in all (22 transient).
  RunConfig config;
  config.workloads = {On("train", 0), On("reference", 0, true)};
  std::vector<WorkloadEstimate> estimates = {Estimate(60, 58, 40), Estimate(31, 30, 8)};
  auto loads = ComputeDeviceLoads(config, estimates);
  REQUIRE(loads.size() == 1);
  // max(trainer's peak 60, context 2 + held 40 + the reference's transient 22 = 64) + 8.
  CHECK(loads[0].bytes == 72);
  CHECK(loads[0].shared);

  // A small reference forward never coincides with the trainer's peak: 60 + its weights.
  estimates[1] = Estimate(11, 10, 8);
  CHECK(ComputeDeviceLoads(config, estimates)[0].bytes == 68);
}

TEST_CASE("two processes at the same time add up, one after the other do not",
          "[analysis][colocation]") {
  RunConfig config;
  config.workloads = {On("serve", 0), On("serve", 1)};
  std::vector<WorkloadEstimate> estimates = {Estimate(30, 28, 0), Estimate(20, 18, 0)};
  CHECK(ComputeDeviceLoads(config, estimates)[0].bytes == 30);
  config.workloads[0].concurrent_processes = {1};
  config.workloads[1].concurrent_processes = {0};
  CHECK(ComputeDeviceLoads(config, estimates)[0].bytes == 50);
}

TEST_CASE("a colocated rollout engine alternates with the trainer, whose state stays",
          "[analysis][colocation]") {
  RunConfig config;
  config.workloads = {On("train", 0), On("rollout", 0)};
  // Trainer peak 50, holding 30; engine 45: the rollout phase holds 45 + 30.
  std::vector<WorkloadEstimate> estimates = {Estimate(50, 48, 30), Estimate(45, 43, 0)};
  CHECK(ComputeDeviceLoads(config, estimates)[0].bytes == 75);
}

TEST_CASE("an engine that does not sleep holds its memory through the trainer's update",
          "[analysis][colocation]") {
  RunConfig config;
  config.workloads = {On("train", 0), On("rollout", 0)};
  std::vector<WorkloadEstimate> estimates = {Estimate(50, 48, 30), Estimate(45, 43, 0)};
  Setting held;
  held.value = Value::Bool(false);
  config.workloads[1].settings["engine_sleeps"] = held;
  // The update's 50 on top of the engine's 45, not max(50, 45 + 30).
  CHECK(ComputeDeviceLoads(config, estimates)[0].bytes == 95);
  // Asleep (OpenRLHF --vllm_enable_sleep), the two take turns again.
  config.workloads[1].settings["engine_sleeps"].value = Value::Bool(true);
  CHECK(ComputeDeviceLoads(config, estimates)[0].bytes == 75);
}

TEST_CASE("a shared GPU's load has a low and a high end, from each workload's range",
          "[analysis][colocation]") {
  RunConfig config;
  config.workloads = {On("serve", 0), On("train", 1)};
  config.workloads[0].concurrent_processes = {1};
  config.workloads[1].concurrent_processes = {0};
  // An engine's claim is one number; a trainer's peak spans its allocator slack: 40 live
  // tensors + context, 44 typically, 52 at the slack a long run reaches (context 1 in each).
  std::vector<WorkloadEstimate> estimates = {Estimate(30, 29, 0), Estimate(44, 43, 20)};
  estimates[0].breakdown->total_low = estimates[0].breakdown->total_high = 30;
  estimates[1].breakdown->total_low = 40;
  estimates[1].breakdown->total_high = 52;
  auto loads = ComputeDeviceLoads(config, estimates);
  REQUIRE(loads.size() == 1);
  CHECK(loads[0].low_bytes == 70);
  CHECK(loads[0].bytes == 74);
  CHECK(loads[0].high_bytes == 82);

  // A colocated rollout engine beside the trainer's persistent state: the state is exact, so
  // only the trainer's own phase moves with its range. max(52, 30 + 20) at the high end.
  config.workloads = {On("train", 0), On("rollout", 0)};
  loads = ComputeDeviceLoads(config, {estimates[1], estimates[0]});
  CHECK(loads[0].low_bytes == 50);
  CHECK(loads[0].high_bytes == 52);
}

TEST_CASE("an engine that sizes its pool to the device starts beside the trainer's state",
          "[analysis][colocation][version]") {
  RunConfig config;
  config.workloads = {On("train", 0), On("rollout", 0)};
  // Trainer peak 50, holding 30; an engine claiming 70 of the device, 20 of which it needs at
  // least (weights, profile peak, one sequence's KV).
  std::vector<WorkloadEstimate> estimates = {Estimate(50, 48, 30), Estimate(70, 69, 0)};
  for (WorkloadEstimate& e : estimates) e.breakdown->total_low = e.breakdown->total_high =
      e.breakdown->total;
  est::Breakdown& engine = *estimates[1].breakdown;
  engine.engine_floor = 20;
  // A release that budgets per instance (vLLM 0.9.2 on) claims 70 on top of the state: 100.
  CHECK(ComputeDeviceLoads(config, estimates)[0].low_bytes == 100);
  // One that subtracts what the device holds (vLLM 0.8.0-0.9.1) shrinks its pool: the device
  // stays at its 70 claim. Over a range of both, the low end adapts and the high end does not.
  engine.pool_fits_device_low = true;
  auto loads = ComputeDeviceLoads(config, estimates);
  CHECK(loads[0].low_bytes == 70);
  CHECK(loads[0].high_bytes == 100);
  engine.pool_fits_device_high = true;
  CHECK(ComputeDeviceLoads(config, estimates)[0].high_bytes == 70);
  // A state that leaves less than the engine's floor is more than the claim: 30 + 20 > 45.
  engine.total = engine.total_low = engine.total_high = 45;
  CHECK(ComputeDeviceLoads(config, estimates)[0].high_bytes == 50);
}

TEST_CASE("an engine that sizes its pool to the device counts a critic in its process too",
          "[analysis][colocation][version]") {
  // verl's PPO: actor (holding 20), critic in the same process (holding 45, its update
  // reserving 70 at the data's longest), an engine claiming 76 with a floor of 7.
  RunConfig config;
  config.workloads = {On("train", 0), On("rollout", 0), On("critic", 0, true)};
  std::vector<WorkloadEstimate> estimates = {Estimate(32, 30, 20), Estimate(76, 75, 0),
                                             Estimate(72, 70, 45)};
  for (WorkloadEstimate& e : estimates) e.breakdown->total_low = e.breakdown->total_high =
      e.breakdown->total;
  est::Breakdown& engine = *estimates[1].breakdown;
  engine.engine_floor = 7;
  // Per instance (vLLM 0.9.2 on): the claim on top of both held states, 76 + 20 + 45 = 141.
  auto loads = ComputeDeviceLoads(config, estimates);
  CHECK(loads[0].low_bytes == 141);
  CHECK(loads[0].held_low_bytes == 141);
  // Device-wide (vLLM 0.8.0-0.9.1): the pool shrinks around the actor and the critic alike,
  // max(76, 20 + 45 + 7) = 76 while generating; the critic's update, 2 + 20 + 45 + 25 = 92,
  // is the step's peak, which the held state alone (76) does not count.
  engine.pool_fits_device_low = engine.pool_fits_device_high = true;
  loads = ComputeDeviceLoads(config, estimates);
  CHECK(loads[0].held_low_bytes == 76);
  CHECK(loads[0].low_bytes == 92);
}
