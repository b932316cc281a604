// Memory a process holds beyond its tensors: the CUDA context, communication buffers, and the
// caching allocator's slack. Named constants, each with its reason and source.
#pragma once

namespace gpulint::est {

/// CUDA context + CUDA/cuBLAS/cuDNN kernels and workspaces of a PyTorch process. nvidia-smi shows
/// 0.3-0.6 GiB for an idle torch process on Ampere/Hopper with lazy module loading (vLLM logs
/// report 0.13-0.15 GiB of non-torch memory *after* its baseline snapshot, which already
/// includes the context).
inline constexpr double kCudaContextGib = 0.5;

/// The same for a training process, measured: nvidia-smi's figure for the process minus torch's
/// reserved peak was 0.68-0.75 GiB (median 0.75) over 180 training and scoring runs on an H100
/// (torch 2.11, CUDA 13; bench/gpu/results). A training step loads more kernels (backward,
/// optimizer, loss) than an engine's forward, and CUDA loads modules lazily.
inline constexpr double kTrainingCudaContextGib = 0.75;

/// cuBLAS and cuBLASLt workspaces, which PyTorch takes from its caching allocator, so they count
/// in torch's allocated peak: 32 MiB each on Hopper, as cuBLAS recommends (4 MiB before Hopper).
/// Measured: the H100 runs' allocated peak at the optimizer step sits 0.06-0.09 GiB above the
/// parameters, gradients and moments.
inline constexpr double kCublasWorkspaceGib = 0.0625;

/// NCCL communicator buffers per process when it talks to other GPUs: vLLM sees ~0.45 GiB more
/// non-torch memory at TP>=2 than at TP=1 (llm-d capacity planner: 0.15 vs 0.6 GiB).
inline constexpr double kNcclGib = 0.45;

/// Caching-allocator slack between the live-tensor peak and reserved memory, typically: freed
/// blocks that cannot be reused for a larger request. Megatron's estimator adds 5%, a ROCm fork
/// 7%; the H100 training runs of bench/gpu/results measured a median of 7% of the allocated
/// peak. Read as a fraction of the peak beyond the weights, like the high end below, the median
/// is 0.10 but predicts LoRA runs worse (their transients fragment more per byte than a full
/// fine-tune's gradients and states): `bench/accuracy`'s LoRA device totals went from 2.9% to
/// 4.1% off in the median.
inline constexpr double kAllocatorSlackFraction = 0.07;

/// The slack a long run reaches, as a fraction of the allocated peak beyond the weights. The
/// weights are allocated at load, before anything else, and never freed, so they leave no holes;
/// what fragments is what each step allocates and frees. The caching allocator gives a request
/// of 10 MiB or more a segment of its own, rounded up to 2 MiB, and keeps freed segments for
/// reuse; a later request larger than every free block takes a new segment
/// (c10/cuda/CUDACachingAllocator.cpp: kMinLargeAlloc, kRoundLarge, get_allocation_size), so the
/// large short-lived tensors of the loss leave holes the steady state cannot fill. 0.38: 218 of
/// the 229 H100 training runs of bench/gpu/results (95%) reserved at most this much above their
/// allocated peak (median 0.10; the largest, 0.54, a Qwen2.5-1.5B full fine-tune whose
/// 150k-token vocabulary makes the loss's logits most of the step). A fraction of the whole
/// peak would give a LoRA run, whose frozen base is most of its memory, four times the slack it
/// shows. That is what those runs reserved with memory to spare; what a run needs is less, since
/// the allocator frees its cached segments before it fails an allocation. Checked on varying
/// lengths (the H200 edge sweeps of bench/gpu/grid.toml, 100 steps, memory capped): three runs
/// capped at their allocated peak plus 1-7% of their working set died at their longest batch;
/// capped at 19-31% (inside this bound) they ran every step, though with memory to spare the
/// same runs cached 18-47% (CachedSlackFraction).
inline constexpr double kAllocatorSlackHighFraction = 0.38;

/// The reserved peak a long run reaches: the weights as allocated, the rest with the high slack.
inline double HighReserved(double allocated_bytes, double weight_bytes) {
  return weight_bytes + (allocated_bytes - weight_bytes) * (1 + kAllocatorSlackHighFraction);
}

/// The reserved peak of a typical run: the typical slack on the whole peak, never above what a
/// long run reaches (a run whose weights are nine tenths of its memory has little to fragment).
inline double TypicalReserved(double allocated_bytes, double weight_bytes) {
  const double typical = allocated_bytes * (1 + kAllocatorSlackFraction);
  const double high = HighReserved(allocated_bytes, weight_bytes);
  return typical < high ? typical : high;
}

/// The reserved peak a long run can die at when the allocator runs with expandable segments
/// (PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True). A segment then grows in place, and on an
/// allocation that finds no room the allocator unmaps every free page of its segments and
/// maps them again where the request needs them (c10/cuda/CUDACachingAllocator.cpp, Note
/// [Expandable Segments]: "If we end up out of memory, we can unmap all the memory in our
/// segment corresponding to empty physical pages"; `release_blocks` unmaps every free block of
/// an expandable segment, where a fixed segment is released only when wholly free). So holes
/// no longer end a run; what stays is the part of a 20 MiB page a hole shares with a live
/// block. Measured (H200 edge sweeps): the three runs that died with the default allocator at
/// 1-7% of their working set above their allocated peak ran all 100 steps at the same caps
/// with expandable segments. The high end is the typical reserved peak.
inline double ExpandableReserved(double allocated_bytes, double weight_bytes) {
  return TypicalReserved(allocated_bytes, weight_bytes);
}

/// What decides how far a long run's cached segments outgrow its live tensors when memory is
/// plentiful (what nvidia-smi shows; Breakdown::total_cached).
///
/// PyTorch's caching allocator keeps freed blocks for reuse and returns memory to the device
/// only when an allocation fails (then it frees its cached segments and tries once more). A
/// request of 1 MiB or more is served from a large block, split if larger; a request larger
/// than every free block takes a new segment of its own from cudaMalloc, rounded up to 2 MiB
/// (c10/cuda/CUDACachingAllocator.cpp: kLargeBuffer, kRoundLarge, get_allocation_size,
/// alloc_block). So what fragments is what each step allocates and frees (activations, logits,
/// gradients, recomputed layers), never the weights and optimizer states allocated once at the
/// start. Three things set how much: batches whose length varies step by step (each new longest
/// shape finds the cached blocks split for shorter ones and takes new segments), recomputation
/// under activation checkpointing (backward allocates each layer's activations again, in an
/// order interleaved with the freeing of the next layer's, and splits the blocks the forward
/// left), and expandable segments (PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: a segment
/// grows in place and, before an allocation fails, the allocator unmaps every free page of its
/// segments and maps them where the request needs them; Note [Expandable Segments], and
/// release_blocks unmapping the free blocks of an expandable segment where a fixed segment is
/// released only when wholly free).
struct AllocatorRun {
  bool varying_shapes = true;  ///< batches padded to their own longest (not packed, not fixed)
  bool recompute = false;      ///< activation checkpointing: backward recomputes each layer
  bool expandable_segments = false;
};

/// The cache a long run holds when memory is plentiful, as a fraction of the step's working set
/// (the allocated peak beyond the weights and optimizer states). Not what the run needs: before
/// an allocation fails, the allocator frees its cached segments and tries again
/// (CUDACachingAllocator.cpp, malloc: release_available_cached_blocks, then release_cached_blocks,
/// each followed by another alloc_block), so a run capped below this keeps
/// going (kAllocatorSlackHighFraction).
///
/// Measured on 304 training runs on an H100 and an H200 (bench/gpu/results; `bench/gpu/slack`
/// recomputes the table): fixed shapes from the 3-step sweeps and packed rows, varying lengths
/// from 100-step runs on long-tailed lengths padded per batch (bench/gpu/batches.py). The high
/// end is the largest fraction any run of its group showed, rounded up.
///
///   shapes   backward      allocator    runs  median  max
///   fixed    no recompute  default        94    0.08  0.37
///   fixed    recompute     default       140    0.26  0.97
///   varying  no recompute  default        22    0.18  0.47
///   varying  recompute     default        17    0.78  2.07
///   either   either        expandable     47    0.07  0.36
double CachedSlackFraction(const AllocatorRun& run);

/// The reserved peak: the allocated peak and `fraction` of its part beyond `state` (what is
/// allocated once and never freed).
inline double WithSlack(double allocated_bytes, double state_bytes, double fraction) {
  const double working = allocated_bytes > state_bytes ? allocated_bytes - state_bytes : 0;
  return allocated_bytes + working * fraction;
}

/// The cached figure as reported: no process caches more than its device holds (`device_bytes`,
/// 0 when unknown), and it is never below the high end.
inline double CachedTotal(double cached_bytes, double high_bytes, double device_bytes) {
  if (device_bytes > 0 && cached_bytes > device_bytes) cached_bytes = device_bytes;
  return cached_bytes > high_bytes ? cached_bytes : high_bytes;
}

/// The device total of a process given its reserved peak, its CUDA context and whether it uses
/// NCCL.
double DeviceTotal(double reserved_bytes, bool uses_nccl, double context_gib = kCudaContextGib);

}  // namespace gpulint::est
