// Memory a process holds beyond its tensors: the CUDA context, communication buffers, and the
// caching allocator's slack. Named constants, each with its reason and source.
#pragma once

namespace gpulint::est {

/// CUDA context + CUDA/cuBLAS/cuDNN kernels and workspaces of a PyTorch process. nvidia-smi shows
/// 0.3-0.6 GiB for an idle torch process on Ampere/Hopper with lazy module loading (vLLM logs
/// report 0.13-0.15 GiB of non-torch memory *after* its baseline snapshot, which already
/// includes the context).
inline constexpr double kCudaContextGib = 0.5;

/// NCCL communicator buffers per process when it talks to other GPUs: vLLM sees ~0.45 GiB more
/// non-torch memory at TP>=2 than at TP=1 (llm-d capacity planner: 0.15 vs 0.6 GiB).
inline constexpr double kNcclGib = 0.45;

/// Caching-allocator slack between the live-tensor peak and reserved memory: freed blocks that
/// cannot be reused for a larger request. Megatron's estimator adds 5%, a ROCm fork 7%.
inline constexpr double kAllocatorSlackFraction = 0.07;

/// The device total of a process given its reserved peak and whether it uses NCCL.
double DeviceTotal(double reserved_bytes, bool uses_nccl);

}  // namespace gpulint::est
