#include "lint/analysis/colocation.h"

#include <algorithm>
#include <map>
#include <set>

#include "estimator/overhead.h"
#include "estimator/units.h"

namespace gpulint {
namespace {

struct ProcessOnDevice {
  double bytes = 0;
  double held = 0;  // without any step's transient tensors
  int live_workloads = 0;
};

// Which end of each workload's range a device's load adds up.
enum class Level { kTypical, kLow, kHigh };

double TotalAt(const est::Breakdown& b, Level level) {
  return level == Level::kLow ? b.total_low : level == Level::kHigh ? b.total_high : b.total;
}

// The torch-reserved part of that total: the total less the process's context.
double ReservedAt(const est::Breakdown& b, Level level) {
  return TotalAt(b, level) - (b.total - b.torch_reserved);
}

// One device's peak at one end of the ranges: the bytes, the workloads live together at it and
// whether more than one workload is live at once.
DeviceLoad LoadAt(const RunConfig& config, const std::vector<WorkloadEstimate>& estimates,
                  int device, const std::map<int, std::vector<int>>& processes, Level level) {
  DeviceLoad load;
  load.device = device;
  std::map<int, ProcessOnDevice> per_process;
  for (const auto& [process, workloads] : processes) {
    ProcessOnDevice p;
    double phase_train = 0, phase_rollout = 0, persistent = 0, train_context = 0;
    // Workloads living in the trainer's process (a reference policy): their weights stay, and
    // their forward runs between the trainer's steps, beside its persistent state only.
    double shared_held = 0, shared_transient = 0;
    bool colocated = false;
    // An engine that sizes its pool to what the device leaves (some vLLM releases) starts
    // beside the trainer's persistent state instead of on top of it.
    bool pool_fits_device = true;
    double engine_floor = 0;
    // An engine that does not sleep (OpenRLHF without --vllm_enable_sleep) keeps its weights
    // and KV cache while the trainer updates: the two add up instead of taking turns.
    bool engine_held = false;
    for (int index : workloads) {
      load.workloads.push_back(index);
      const WorkloadEstimate& e = estimates[static_cast<size_t>(index)];
      if (!e.breakdown) continue;
      const est::Breakdown& b = *e.breakdown;
      const Workload& w = config.workloads[static_cast<size_t>(index)];
      ++p.live_workloads;
      if (w.shares_process_gpus) {
        // Same process: no second CUDA context.
        const double held = std::min(e.persistent_bytes, ReservedAt(b, level));
        shared_held += held;
        shared_transient = std::max(shared_transient, ReservedAt(b, level) - held);
      } else if (w.role == "rollout") {
        phase_rollout = std::max(phase_rollout, TotalAt(b, level));
        colocated = true;
        pool_fits_device = pool_fits_device && (level == Level::kLow ? b.pool_fits_device_low
                                                                     : b.pool_fits_device_high);
        engine_floor = std::max(engine_floor, b.engine_floor);
        engine_held = engine_held || !w.Bool("engine_sleeps").value_or(true);
      } else {
        if (TotalAt(b, level) > phase_train) train_context = b.total - b.torch_reserved;
        phase_train = std::max(phase_train, TotalAt(b, level));
        persistent = std::max(persistent, e.persistent_bytes);
      }
    }
    // A colocated trainer and rollout engine take turns; the trainer's weights and optimizer
    // stay on the GPU while the engine generates unless the framework offloads them.
    bool offloaded = false;
    for (int index : workloads) {
      const Workload& w = config.workloads[static_cast<size_t>(index)];
      if (auto offload = w.Bool("offload_train")) offloaded = offloaded || *offload;
    }
    // What the engine's process holds beside it while it generates: the trainer's state and
    // the held state of the models in its process (a critic, a reference).
    const double beside_engine = (colocated && !offloaded ? persistent : 0) + shared_held;
    double rollout_phase = phase_rollout + beside_engine;
    // An engine whose pool shrinks to what the device leaves sizes it around all of that.
    if (colocated && !offloaded && pool_fits_device && engine_floor > 0)
      rollout_phase = std::max(phase_rollout, beside_engine + engine_floor);
    double turns = std::max(
        (engine_held ? phase_train + phase_rollout : phase_train) + shared_held, rollout_phase);
    if (shared_transient > 0)
      turns = std::max(turns, train_context + persistent + shared_held + shared_transient);
    p.bytes += turns;
    // The same without a step's transients: the engine's phase with the held state beside it,
    // or the held state alone.
    p.held = colocated ? rollout_phase : shared_held + persistent;
    if (colocated && phase_train > 0) p.live_workloads = std::max(p.live_workloads, 2);
    per_process[process] = p;
  }
  // Processes that run at the same time add up; the device's peak is the worst such set.
  for (const auto& [process, p] : per_process) {
    double bytes = p.bytes;
    double held = p.held;
    int live = p.live_workloads;
    std::vector<int> together = processes.at(process);
    const Workload* first = nullptr;
    for (int index : processes.at(process)) first = &config.workloads[static_cast<size_t>(index)];
    if (first) {
      for (int other : first->concurrent_processes) {
        auto it = per_process.find(other);
        if (it == per_process.end()) continue;
        bytes += it->second.bytes;
        held += it->second.held;
        live += it->second.live_workloads;
        const std::vector<int>& others = processes.at(other);
        together.insert(together.end(), others.begin(), others.end());
      }
    }
    load.held_bytes = std::max(load.held_bytes, held);
    if (bytes > load.bytes) {
      load.bytes = bytes;
      std::sort(together.begin(), together.end());
      load.peak_workloads = std::move(together);
    }
    load.shared = load.shared || live > 1;
  }
  return load;
}

}  // namespace

std::vector<DeviceLoad> ComputeDeviceLoads(const RunConfig& config,
                                           const std::vector<WorkloadEstimate>& estimates) {
  // device -> process -> workloads of that process on that device
  std::map<int, std::map<int, std::vector<int>>> by_device;
  for (size_t i = 0; i < config.workloads.size(); ++i)
    for (int device : config.workloads[i].devices)
      by_device[device][config.workloads[i].process].push_back(static_cast<int>(i));

  std::vector<DeviceLoad> loads;
  for (const auto& [device, processes] : by_device) {
    DeviceLoad load = LoadAt(config, estimates, device, processes, Level::kTypical);
    const DeviceLoad low = LoadAt(config, estimates, device, processes, Level::kLow);
    load.low_bytes = low.bytes;
    load.held_low_bytes = low.held_bytes;
    const DeviceLoad high = LoadAt(config, estimates, device, processes, Level::kHigh);
    load.high_bytes = high.bytes;
    load.held_high_bytes = high.held_bytes;
    loads.push_back(std::move(load));
  }
  return loads;
}

LiveBeside LiveBesideWorkload(const RunConfig& config,
                              const std::vector<WorkloadEstimate>& estimates, size_t workload,
                              bool engines_asleep) {
  LiveBeside out;
  const auto& workloads = config.workloads;
  const Workload& self = workloads[workload];
  for (size_t j = 0; j < workloads.size(); ++j) {
    const Workload& other = workloads[j];
    const WorkloadEstimate& e = estimates[j];
    if (j == workload || !e.breakdown) continue;
    bool same_process = other.process == self.process && other.shares_process_gpus;
    bool beside = std::find(self.concurrent_processes.begin(), self.concurrent_processes.end(),
                            other.process) != self.concurrent_processes.end();
    bool shares_device = false;
    for (int d : other.devices)
      shares_device = shares_device ||
                      std::find(self.devices.begin(), self.devices.end(), d) != self.devices.end();
    if (!shares_device) continue;
    // At their high ends, as the workload's own peak is judged (LoadAt above).
    const est::Breakdown& b = *e.breakdown;
    const double reserved_high = b.total_high - (b.total - b.torch_reserved);  // one context
    // A colocated engine that does not sleep holds its memory through the update.
    const Workload& engine = other.role == "rollout" ? other : self;
    const bool engine_held = other.process == self.process && !other.shares_process_gpus &&
                             !self.shares_process_gpus && engine.role == "rollout" &&
                             !engine.Bool("engine_sleeps").value_or(true);
    // A model in the same process holds its weights at this workload's peak; its own forward
    // runs between this workload's steps, not at their peak. One whose held part is not
    // known (an inference estimate) counts whole.
    if (same_process) {
      out.bytes +=
          e.persistent_bytes > 0 ? std::min(e.persistent_bytes, reserved_high) : reserved_high;
    } else if (beside) {
      out.bytes += b.total_high;
    } else if (engine_held) {
      if (other.role == "rollout") out.held_engines.push_back(j);
      if (!engines_asleep) out.bytes += b.total_high;
    }
  }
  return out;
}

}  // namespace gpulint
