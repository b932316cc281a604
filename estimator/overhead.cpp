#include "estimator/overhead.h"

#include "estimator/units.h"

namespace gpulint::est {

double CachedSlackFraction(const AllocatorRun& run) {
  if (run.expandable_segments) return 0.40;
  if (run.varying_shapes) return run.recompute ? 2.10 : 0.50;
  return run.recompute ? 1.00 : 0.40;
}

double DeviceTotal(double reserved_bytes, bool uses_nccl, double context_gib) {
  return reserved_bytes + GibToBytes(context_gib) + (uses_nccl ? GibToBytes(kNcclGib) : 0);
}

}  // namespace gpulint::est
