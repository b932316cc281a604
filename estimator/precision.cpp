#include "estimator/precision.h"

#include <string_view>

namespace gpulint::est {

bool ParsePrecision(const std::string& text, Precision* precision) {
  if (text == "bf16" || text == "bfloat16" || text == "bf16-true" || text == "pure_bf16") {
    *precision = Precision::kBf16;
  } else if (text == "fp16" || text == "float16" || text == "half") {
    *precision = Precision::kFp16;
  } else if (text == "amp-bf16" || text == "bf16-mixed" || text == "amp_bf16" ||
             text == "amp-16") {
    // amp-16: a framework's "auto", bf16 where the GPU has it and fp16 where not; the same
    // bytes either way.
    *precision = Precision::kAmpBf16;
  } else if (text == "amp-fp16" || text == "fp16-mixed" || text == "amp_fp16") {
    *precision = Precision::kAmpFp16;
  } else if (text == "fp32" || text == "float32" || text == "no") {
    *precision = Precision::kFp32;
  } else {
    return false;
  }
  return true;
}

namespace {

// Each optimizer's states, from the code that allocates them:
//  - torch.optim AdamW/Adam: exp_avg and exp_avg_sq in the parameter's dtype; RMSprop
//    square_avg and Adagrad sum, one state each (momentum 0 by default); SGD none.
//  - bitsandbytes (bitsandbytes-foundation/bitsandbytes@95f9af30): 32-bit states are fp32
//    whatever the parameter's dtype (bitsandbytes/optim/optimizer.py:509-510); 8-bit states are
//    uint8 with an fp32 absmax per 256 elements (optimizer.py:518-529); Lion and RMSprop keep
//    one state (Optimizer1State, optimizer.py:681-695); AdEMAMix keeps m1 and m2 stacked plus
//    nu (bitsandbytes/optim/ademamix.py:262). transformers picks 8 bits when the name holds
//    "8bit" and pages when it holds "paged" (src/transformers/trainer_optimizer.py:243-244).
//  - torchao (pytorch/ao@36027d82): AdamW8bit, uint8 codes with an fp32 scale per 256
//    (torchao/optim/adam.py:319, subclass_8bit.py:112-113); AdamW4bit, two codes per byte with
//    an fp32 scale per 128 (adam.py:352, subclass_4bit.py:126-127). transformers' names for
//    them are adamw_torch_8bit and adamw_torch_4bit (trainer_optimizer.py:453-460).
struct Named {
  const char* names;  // space-separated spellings
  Optimizer optimizer;
};

Optimizer Kind(const char* name, int moments, int state_bits = 0, int scale_block = 0,
               bool paged = false) {
  Optimizer o;
  o.name = name;
  o.moments = moments;
  o.state_bits = state_bits;
  o.scale_block = scale_block;
  o.paged = paged;
  o.foreach_temporary = state_bits == 0 && moments == 2;
  return o;
}

// A fused AdamW updates every tensor in place in one kernel: torch's fused=True
// (torch._fused_adamw_, which transformers' adamw_torch_fused selects) and DeepSpeed's FusedAdam
// (deepspeed/ops/adam/fused_adam.py: multi_tensor_applier(self.multi_tensor_adam, ...), what a
// DeepSpeed config's "optimizer" section builds on the GPU, runtime/engine.py:2135 at edaa7221).
// No state-sized temporary, unlike torch's foreach step.
Optimizer Fused(Optimizer o) {
  o.foreach_temporary = false;
  return o;
}

const Named kOptimizers[] = {
    {"adamw adam adamw_torch adamw_hf", Kind("adamw", 2)},
    {"adamw_torch_fused fused_adam adamw_apex_fused", Fused(Kind("adamw", 2))},
    {"adamw_8bit adam8bit adamw_bnb_8bit", Kind("adamw_8bit", 2, 8, 256)},
    {"paged_adamw paged_adamw_32bit", Kind("paged_adamw", 2, 32, 0, true)},
    {"paged_adamw_8bit", Kind("paged_adamw_8bit", 2, 8, 256, true)},
    {"adamw_torch_8bit", Kind("adamw_torch_8bit", 2, 8, 256)},
    {"adamw_torch_4bit", Kind("adamw_torch_4bit", 2, 4, 128)},
    {"lion lion_32bit", Kind("lion", 1, 32)},
    {"lion_8bit", Kind("lion_8bit", 1, 8, 256)},
    {"paged_lion paged_lion_32bit", Kind("paged_lion", 1, 32, 0, true)},
    {"paged_lion_8bit", Kind("paged_lion_8bit", 1, 8, 256, true)},
    {"ademamix", Kind("ademamix", 3, 32)},
    {"ademamix_8bit", Kind("ademamix_8bit", 3, 8, 256)},
    {"paged_ademamix paged_ademamix_32bit", Kind("paged_ademamix", 3, 32, 0, true)},
    {"paged_ademamix_8bit", Kind("paged_ademamix_8bit", 3, 8, 256, true)},
    {"rmsprop adagrad", Kind("rmsprop", 1)},
    {"rmsprop_bnb rmsprop_bnb_32bit", Kind("rmsprop_bnb", 1, 32)},
    {"rmsprop_bnb_8bit", Kind("rmsprop_bnb_8bit", 1, 8, 256)},
    {"sgd", Kind("sgd", 0)},
};

bool NamesHold(std::string_view names, std::string_view text) {
  while (!names.empty()) {
    const size_t space = names.find(' ');
    if (names.substr(0, space) == text) return true;
    if (space == std::string_view::npos) break;
    names.remove_prefix(space + 1);
  }
  return false;
}

}  // namespace

bool ParseOptimizer(const std::string& text, Optimizer* optimizer) {
  if (text == "adafactor") {
    *optimizer = Kind("adafactor", 0);
    optimizer->factored = true;
    return true;
  }
  for (const Named& named : kOptimizers) {
    if (NamesHold(named.names, text)) {
      *optimizer = named.optimizer;
      return true;
    }
  }
  return false;
}

const char* PrecisionName(Precision precision) {
  switch (precision) {
    case Precision::kBf16: return "bf16";
    case Precision::kFp16: return "fp16";
    case Precision::kAmpBf16: return "amp-bf16";
    case Precision::kAmpFp16: return "amp-fp16";
    case Precision::kFp32: return "fp32";
  }
  return "bf16";
}

double ComputeBytes(Precision precision) { return precision == Precision::kFp32 ? 4 : 2; }

double MasterBytes(Precision precision) {
  return precision == Precision::kBf16 || precision == Precision::kFp16 ? 2 : 4;
}

bool HasMasterCopy(Precision precision) {
  return precision == Precision::kAmpBf16 || precision == Precision::kAmpFp16;
}

double OptimizerStateBytes(const Optimizer& optimizer, Precision precision, double hidden_size) {
  const double state = MasterBytes(precision);
  // Adafactor: a row and a column vector per (h x k) matrix, about 2 / h of an element per weight.
  if (optimizer.factored) return hidden_size > 0 ? state * 2 / hidden_size : 0;
  double per_moment = state;
  if (optimizer.state_bits > 0) per_moment = optimizer.state_bits / 8.0;
  if (optimizer.scale_block > 0) per_moment += 4.0 / optimizer.scale_block;
  return optimizer.moments * per_moment;
}

}  // namespace gpulint::est
