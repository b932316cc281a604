// What a decoder layer keeps for backward, by what the layer holds.
#include <catch2/catch.hpp>

#include "estimator/activations.h"
#include "estimator/model_arch.h"

using gpulint::est::ActivationInput;
using gpulint::est::ModelArch;

namespace {

// Two layers of a relu2 (ungated) model, as Nemotron-H's blocks are.
ModelArch Blocks() {
  ModelArch m;
  m.hidden_size = 64;
  m.num_layers = 2;
  m.num_attention_heads = 4;
  m.num_kv_heads = 2;
  m.head_dim = 16;
  m.intermediate_size = 256;
  m.vocab_size = 100;
  m.gated_mlp = false;
  return m;
}

}  // namespace

TEST_CASE("a mixer without an MLP keeps no MLP activations and one norm's",
          "[estimator][activations]") {
  ModelArch m = Blocks();
  ActivationInput in;
  in.tokens = 1;
  const double with_mlp = gpulint::est::LayerActivationBytesPerToken(m, 1, in);
  m.mlp_absent_layer = {false, true};
  const double alone = gpulint::est::LayerActivationBytesPerToken(m, 1, in);
  CHECK(gpulint::est::LayerActivationBytesPerToken(m, 0, in) == with_mlp);
  // The plain MLP keeps fc1's output and its activation (2 x 2 bytes x 256 per token), and the
  // MLP norm its share: all of it goes.
  CHECK(with_mlp - alone > 2 * 2 * 256);
  CHECK(alone > 0);
  // Backward holds only the mixer's gradients: attention's, not the MLP's wider ones.
  CHECK(gpulint::est::LayerBackwardBytesPerToken(m, 1, in) <
        gpulint::est::LayerBackwardBytesPerToken(m, 0, in));
}

TEST_CASE("Mamba-2 keeps in_proj's output and its norm's rstd, far less than Gated DeltaNet",
          "[estimator][activations]") {
  ModelArch m = Blocks();
  m.linear_attention_layer = {true, true};
  m.linear = {1, 8, 32, 16, 4, true, false, ModelArch::LinearAttention::Kind::kMamba2};
  ActivationInput in;
  in.tokens = 1;
  const double mamba = gpulint::est::LayerActivationBytesPerToken(m, 0, in);
  m.linear.kind = ModelArch::LinearAttention::Kind::kGatedDeltaNet;
  const double deltanet = gpulint::est::LayerActivationBytesPerToken(m, 0, in);
  // zxbcdt: z 128 + x, B, C 192 + dt 8 = 328 elements of 2 bytes, and 4 bytes of rstd for one
  // group, against the DeltaNet's two convolution widths, its q/k copies and its chunk matrix.
  CHECK(deltanet - mamba > 0);
  // Beside the norm, zxbcdt (z 128 + x, B, C 192 + dt 8) in 2 bytes: twice the heads add
  // z 128, x 128 and dt 8 elements, 528 bytes.
  m.linear.kind = ModelArch::LinearAttention::Kind::kMamba2;
  m.mlp_absent_layer = {true, true};
  const double eight_heads = gpulint::est::LayerActivationBytesPerToken(m, 0, in);
  m.linear.value_heads = 16;
  CHECK(gpulint::est::LayerActivationBytesPerToken(m, 0, in) - eight_heads == 2.0 * 264);
}
