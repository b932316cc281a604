// The estimator's view of a model: architecture numbers (from config.json or the catalog) and
// the structure traits the numbers imply. Plain data; lint/catalog fills it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpulint::est {

/// How a checkpoint's weights are stored when it is pre-quantized, or how a loader quantizes it.
enum class WeightFormat {
  kDefault,    ///< the model's dtype (bf16/fp16/fp32), no quantization
  kInt8,       ///< bitsandbytes LLM.int8: 1 byte + fp32 scale per output row
  kNf4,        ///< bitsandbytes / torchao NF4 (or FP4): 4 bits + fp32 absmax per 64 weights
  kNf4Double,  ///< NF4 with double-quantized absmax: 4 + 8/64 + 32/(64*256) bits
  kGptqInt4,   ///< GPTQ 4-bit, fp16 scale + packed 4-bit zero per group
  kGptqInt8,   ///< GPTQ 8-bit, fp16 scale + zero per group
  kAwqInt4,    ///< AWQ 4-bit, fp16 scale + packed 4-bit zero per group
  kFp8,        ///< FP8 e4m3 weights with per-channel or 128x128-block fp32 scales
  kMxfp4,      ///< OCP MX FP4: 4 bits + one 8-bit shared exponent per 32 weights = 4.25 bits
  kNvfp4,      ///< NVFP4: 4 bits + one fp8 scale per 16 weights = 4.5 bits
};

/// Which groups of linear layers a quantization format leaves in 16-bit.
struct QuantExclusions {
  bool attention = false;  ///< e.g. gpt-oss keeps self_attn in bf16 (modules_to_not_convert)
  bool dense_mlp = false;
  bool shared_experts = false;
  bool routed_experts = false;  ///< 3D expert parameters, which bitsandbytes does not convert
};

struct Quantization {
  WeightFormat format = WeightFormat::kDefault;
  int group_size = 128;  ///< weights per scale group (GPTQ/AWQ); 0 = per channel
  QuantExclusions exclusions;
};

/// A vision encoder in front of the language model (Qwen-VL, Gemma 3, Llama 4, mllama).
struct VisionTower {
  int64_t depth = 0;              ///< transformer blocks
  int64_t hidden_size = 0;
  int64_t intermediate_size = 0;  ///< 0 = 4 * hidden_size
  int64_t num_heads = 0;
  int64_t patch_size = 0;
  int64_t temporal_patch_size = 1;
  int64_t spatial_merge_size = 1;  ///< patches merged per side before the projector (Qwen-VL)
  int64_t out_hidden_size = 0;     ///< projector output = language model hidden size
  int64_t deepstack_mergers = 0;   ///< extra projector copies (Qwen3-VL deepstack)
  bool gated_mlp = false;          ///< Qwen2.5-VL uses SwiGLU in the vision blocks
  /// The projector from the merged patches (hidden_size x spatial_merge_size^2 wide) into the
  /// language model: Qwen-VL's merger (a LayerNorm, merged -> merged -> out, with biases),
  /// one linear layer without bias (SmolVLM, modeling_smolvlm.py 401-403 at transformers
  /// e8c4f0b7), or a LayerNorm and merged -> projector_hidden_size -> out with biases (LFM2-VL,
  /// modeling_lfm2_vl.py 40-54).
  enum class Projector { kMerger, kLinear, kMlp } projector = Projector::kMerger;
  int64_t projector_hidden_size = 0;
  /// Rows of a learned position table of hidden_size (Gemma 4: one per axis, 2 x
  /// position_embedding_size; modeling_gemma4.py 579-588 at transformers e8c4f0b7).
  int64_t position_rows = 0;
  bool present() const { return depth > 0 && hidden_size > 0; }
};

/// An audio encoder in front of the language model, of one of two kinds:
///  - Gemma 4's (and Gemma 3n's) USM conformer (modeling_gemma4.py 249-537, 1912-1932 at
///    transformers e8c4f0b7). Each block: two half-step feed-forward modules (4x wide, two
///    RMSNorms each), self-attention with q, k, v, post and a relative-position key projection,
///    a light convolution module and three norms.
///  - Whisper's encoder, as Qwen2-Audio and Voxtral carry it (modeling_qwen2_audio.py,
///    modeling_voxtral.py): two 1D convolutions over the mel bins (kernel 3, with biases), a
///    frozen learned position table, pre-norm blocks of LayerNorm, q/v/out projections with
///    biases and k without, and a GELU fc1/fc2 of intermediate_size with biases; a final
///    LayerNorm. Its projector into the language model is one linear layer with a bias
///    (Qwen2-Audio), or, after 4 frames are stacked into intermediate_size features, two
///    bias-free layers through the language model's width (Voxtral).
struct AudioTower {
  enum class Kind { kConformer, kWhisper } kind = Kind::kConformer;
  int64_t depth = 0;
  int64_t hidden_size = 0;
  int64_t conv_kernel = 0;        ///< the light convolution's depthwise kernel
  int64_t num_heads = 0;
  int64_t subsample_channels[2] = {0, 0};  ///< the two 3x3 convolutions in front of the blocks
  int64_t output_size = 0;        ///< output_proj's width (with bias), projected to hidden_size
  // Whisper's encoder.
  int64_t intermediate_size = 0;  ///< fc1's width (Voxtral: also the stacked frames' width)
  int64_t num_mel_bins = 0;
  int64_t max_source_positions = 0;
  enum class Projector { kLinear, kStackedMlp } projector = Projector::kLinear;
  bool present() const { return depth > 0 && hidden_size > 0; }
};

/// Architecture numbers of a decoder-only (or VLM) model. Zero means "not applicable".
struct ModelArch {
  std::string name;        ///< display name: the HF id or the user's name
  std::string model_type;  ///< config.json model_type (text model type for VLMs)
  std::string dtype = "bfloat16";  ///< torch_dtype of the checkpoint

  int64_t hidden_size = 0;
  int64_t num_layers = 0;
  int64_t num_attention_heads = 0;
  int64_t num_kv_heads = 0;
  int64_t head_dim = 0;
  int64_t intermediate_size = 0;   ///< dense MLP width
  int64_t vocab_size = 0;
  int64_t max_position_embeddings = 0;
  bool tied_embeddings = false;

  // Structure traits (catalog/architectures.toml, by model_type).
  bool gated_mlp = true;        ///< gate+up+down (SwiGLU/GeGLU) vs up+down
  bool layer_norm_bias = false; ///< LayerNorm (weight+bias) instead of RMSNorm
  int norms_per_layer = 2;
  bool qkv_bias = false;
  bool o_bias = false;
  bool mlp_bias = false;
  bool lm_head_bias = false;
  enum class QkNorm { kNone, kPerHead, kFullWidth } qk_norm = QkNorm::kNone;
  bool attention_sinks = false;  ///< one learned logit per head per layer (gpt-oss)
  /// What Liger-Kernel replaces in this model type when a trainer asks it to: the decoder
  /// layers' two RMSNorms and the final one, and the dense layers' gated MLP.
  bool liger_rms_norm = false;
  bool liger_glu = false;

  // Mixture of experts.
  int64_t num_experts = 0;
  int64_t experts_per_token = 0;
  int64_t expert_intermediate_size = 0;
  int64_t shared_expert_intermediate_size = 0;  ///< total width of the shared expert(s)
  bool shared_expert_gate = false;              ///< Qwen2-MoE gates the shared expert (h x 1)
  bool expert_bias = false;                     ///< gpt-oss experts carry biases
  bool router_bias = false;
  /// Routed experts stored as 3D parameters, not one nn.Linear per expert (transformers'
  /// Qwen3_5MoeExperts): LoRA's target_modules (up_proj, down_proj) reach only the shared expert,
  /// and bitsandbytes' conversion, which replaces nn.Linear modules, leaves them in 16 bits.
  bool fused_experts = false;
  /// The routed experts' module names where they differ from the dense MLP's (Kimi Linear's
  /// w1, w2, w3): LoRA targets that name only gate_proj, up_proj and down_proj miss them.
  std::vector<std::string> expert_linear_names;
  std::vector<bool> moe_layer;                  ///< per layer: routed experts instead of dense MLP
  /// per layer: a mixer with no MLP after it and one norm (Nemotron-H's lone Mamba blocks)
  std::vector<bool> mlp_absent_layer;
  int64_t dense_intermediate_size = 0;          ///< MLP width of the dense layers of a MoE model

  // Multi-head latent attention (DeepSeek V2/V3).
  int64_t q_lora_rank = 0;
  int64_t kv_lora_rank = 0;
  int64_t qk_nope_head_dim = 0;
  int64_t qk_rope_head_dim = 0;
  int64_t v_head_dim = 0;

  // Attention span per layer: 0 = full attention, else the window (sliding or chunked) in tokens.
  std::vector<int64_t> attention_window;
  /// q_proj also writes a per-head sigmoid gate on the attention output, doubling its width
  /// (Qwen3-Next and Qwen3.5 full-attention layers: `attn_output_gate`).
  bool attention_output_gate = false;

  // Linear attention: a layer that keeps no KV cache but a fixed state per sequence, the last
  // conv_kernel - 1 inputs of its causal convolution and one key_head_dim x value_head_dim matrix
  // per value head. Two kinds share that shape:
  //  - Gated DeltaNet (Qwen3-Next, Qwen3.5): q, k and v heads; in_proj also writes two gates per
  //    value head (b and a), a gated RMSNorm over one head's width;
  //  - Mamba-2 (Granite 4.0 H): key_heads = n_groups and key_head_dim = d_state (B and C),
  //    value_heads = n_heads and value_head_dim = d_head (x); in_proj writes one dt per head, and
  //    the layer holds dt_bias, A_log and D per head and a gated RMSNorm over the whole width;
  //  - a gated short convolution (LFM2): in_proj writes B, C and x of the hidden width, the
  //    convolution runs over B x x, C gates its output; one value head of the hidden width and no
  //    keys, so its state is the convolution's alone;
  //  - Mamba-1 (Jamba): in_proj writes x and the gate z, each the inner width; the convolution
  //    runs over x alone; x_proj makes dt (dt_rank wide), B and C from it. Every channel is its
  //    own head: value_heads = the inner width, value_head_dim = 1, key_head_dim = d_state, no
  //    key heads (B and C do not pass the convolution);
  //  - Kimi Delta Attention (Kimi Linear): Gated DeltaNet's q, k and v with their convolutions
  //    and a beta per head, but a decay per channel and the output gate each through a low-rank
  //    pair (h -> gate_rank -> value width), dt_bias per channel.
  struct LinearAttention {
    enum class Kind { kGatedDeltaNet, kMamba2, kShortConv, kMamba1, kKda };
    int64_t key_heads = 0;
    int64_t value_heads = 0;
    int64_t key_head_dim = 0;
    int64_t value_head_dim = 0;
    int64_t conv_kernel = 0;
    bool conv_bias = false;      ///< the convolution's bias (Mamba-2's mamba_conv_bias)
    bool proj_bias = false;      ///< in_proj's bias (Mamba-2's mamba_proj_bias)
    Kind kind = Kind::kGatedDeltaNet;
    bool out_proj_bias = false;  ///< out_proj's bias (mamba_proj_bias; Falcon-H1: projectors_bias)
    bool gated_norm = true;      ///< Mamba-2's gated RMSNorm (Falcon-H1: only with mamba_rms_norm)
    int64_t dt_rank = 0;         ///< Mamba-1: the width of dt before dt_proj
    bool inner_norms = false;    ///< Mamba-1: RMSNorms over dt, B and C (Jamba)
    int64_t gate_rank = 0;       ///< KDA: the width between each gate's two projections
    double KeyWidth() const { return static_cast<double>(key_heads) * key_head_dim; }
    double ValueWidth() const { return static_cast<double>(value_heads) * value_head_dim; }
    /// Channels of the causal convolution: q, k and v (B, C and x) side by side.
    double ConvWidth() const { return 2 * KeyWidth() + ValueWidth(); }
    /// in_proj's outputs: q, k, v and z with b and a per value head (Gated DeltaNet); z, x, B,
    /// C and dt per head (Mamba-2); B, C and x (short convolution); x and z (Mamba-1); q, k, v,
    /// b per head and the two gates' first halves (KDA).
    double InProjWidth() const {
      switch (kind) {
        case Kind::kGatedDeltaNet: return ConvWidth() + ValueWidth() + 2.0 * value_heads;
        case Kind::kKda: return ConvWidth() + static_cast<double>(value_heads) + 2.0 * gate_rank;
        case Kind::kMamba2: return ConvWidth() + ValueWidth() + static_cast<double>(value_heads);
        case Kind::kShortConv: return 3 * ValueWidth();
        case Kind::kMamba1: return 2 * ValueWidth();
      }
      return 0;
    }
  } linear;
  std::vector<bool> linear_attention_layer;  ///< per layer: linear attention instead of attention
  /// A linear layer also runs attention beside it on the same norm's output and sums the two
  /// (Falcon-H1's parallel hybrid block): it keeps a KV cache and a state.
  bool attention_beside_linear = false;

  // Gemma 4's attention: full-attention layers (window 0) with their own head width and, where
  // the config says attention_k_eq_v, their own KV heads and no v_proj (values are the keys'
  // projection, normed apart; modeling_gemma4.py 1177-1212 at transformers e8c4f0b7).
  struct FullAttention {
    int64_t head_dim = 0;      ///< 0: the model's head_dim
    int64_t kv_heads = 0;      ///< 0: the model's KV heads
    bool values_are_keys = false;
  } full_attention;
  /// The last N layers read the K/V of the last earlier layer of their attention type: no k_proj,
  /// v_proj or k_norm, no KV cache (modeling_gemma4.py 1186-1212; cache_utils.py 1733-1736).
  int64_t kv_shared_layers = 0;
  /// Their MLP is twice intermediate_size wide (use_double_wide_mlp, modeling_gemma4.py 1068-1073).
  bool kv_shared_mlp_doubled = false;
  // Per-layer inputs (Gemma 4's PLE, modeling_gemma4.py 1373-1378, 1602-1617): a table of
  // per_layer_input_size values per layer for each of per_layer_input_vocab tokens, a projection
  // of the hidden state to the same, and in each layer a gate (h -> size), a projection back and
  // a norm.
  int64_t per_layer_input_size = 0;
  int64_t per_layer_input_vocab = 0;
  /// Gemma 4's router also scales its input (h) and each expert (E) (modeling_gemma4.py 1322-1333).
  bool router_scales = false;
  /// Norms a MoE layer adds to norms_per_layer (Gemma 4: 3 around the expert branch, 1384-1386).
  int moe_extra_norms = 0;

  VisionTower vision;
  AudioTower audio;
  /// Multi-token-prediction layers a checkpoint ships beside the model (`mtp_num_hidden_layers`):
  /// counted against the checkpoint's stated size, not loaded (transformers skips `mtp.*`,
  /// modeling_qwen3_5.py 881 at 2da00a3c).
  int64_t mtp_layers = 0;
  Quantization checkpoint_quant;  ///< pre-quantized checkpoint (FP8, MXFP4, AWQ, GPTQ)

  bool is_moe() const { return num_experts > 0; }
  /// The MLP width of a dense layer: a MoE model's own dense width where it states one.
  double DenseMlpWidth() const {
    return static_cast<double>(is_moe() && dense_intermediate_size > 0 ? dense_intermediate_size
                                                                       : intermediate_size);
  }
  bool is_mla() const { return kv_lora_rank > 0; }
  bool IsMoeLayer(int64_t layer) const {
    return layer >= 0 && static_cast<size_t>(layer) < moe_layer.size() && moe_layer[layer];
  }
  bool HasMlp(int64_t layer) const {
    return layer < 0 || static_cast<size_t>(layer) >= mlp_absent_layer.size() ||
           !mlp_absent_layer[layer];
  }
  bool IsLinearAttentionLayer(int64_t layer) const {
    return layer >= 0 && static_cast<size_t>(layer) < linear_attention_layer.size() &&
           linear_attention_layer[layer];
  }
  bool HasAttention(int64_t layer) const {
    return !IsLinearAttentionLayer(layer) || attention_beside_linear;
  }
  bool has_linear_attention() const {
    for (bool linear_layer : linear_attention_layer)
      if (linear_layer) return true;
    return false;
  }
  int64_t WindowOfLayer(int64_t layer) const {
    return static_cast<size_t>(layer) < attention_window.size() ? attention_window[layer] : 0;
  }
  bool IsKvSharedLayer(int64_t layer) const {
    return kv_shared_layers > 0 && layer >= num_layers - kv_shared_layers;
  }
  /// One layer's attention as its weights and cache see it.
  struct AttentionShape {
    double head_dim = 0;
    double kv_heads = 0;
    bool key_projection = true;    ///< k_proj (and k_norm): absent where the layer shares K/V
    bool value_projection = true;  ///< v_proj: absent there and where values are the keys
    bool caches_kv = true;
    double QueryWidth(int64_t heads) const { return static_cast<double>(heads) * head_dim; }
    double KvWidth() const { return kv_heads * head_dim; }
    double KvProjections() const { return (key_projection ? 1 : 0) + (value_projection ? 1 : 0); }
  };
  AttentionShape AttentionOf(int64_t layer) const {
    AttentionShape shape{static_cast<double>(head_dim), static_cast<double>(num_kv_heads)};
    const bool full = full_attention.head_dim > 0 && WindowOfLayer(layer) == 0;
    if (full) {
      shape.head_dim = static_cast<double>(full_attention.head_dim);
      if (full_attention.kv_heads > 0) shape.kv_heads = static_cast<double>(full_attention.kv_heads);
      shape.value_projection = !full_attention.values_are_keys;
    }
    if (IsKvSharedLayer(layer)) {
      shape.key_projection = shape.value_projection = false;
      shape.caches_kv = false;
    }
    return shape;
  }
  /// The widest attention of any layer (q, k and v together), for bounds that take the widest.
  AttentionShape WidestAttention() const {
    AttentionShape widest = AttentionOf(0);
    for (int64_t layer = 1; layer < num_layers; ++layer) {
      AttentionShape shape = AttentionOf(layer);
      if (shape.QueryWidth(num_attention_heads) + 2 * shape.KvWidth() >
          widest.QueryWidth(num_attention_heads) + 2 * widest.KvWidth())
        widest = shape;
    }
    return widest;
  }
  /// A dense layer's MLP width (a MoE layer's dense branch where it has one).
  double MlpWidthOf(int64_t layer) const {
    return DenseMlpWidth() * (kv_shared_mlp_doubled && IsKvSharedLayer(layer) ? 2 : 1);
  }
  /// The widest dense MLP of any layer.
  double WidestMlpWidth() const {
    return DenseMlpWidth() * (kv_shared_mlp_doubled && kv_shared_layers > 0 ? 2 : 1);
  }
};

}  // namespace gpulint::est
