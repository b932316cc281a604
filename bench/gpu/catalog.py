"""gpulint's catalog (catalog/*.toml) as the harness needs it: the architecture of a model as a
transformers config, and the canonical name of the GPU torch reports.

The harness builds every model from these values with random weights, so what is measured is
exactly the architecture gpulint estimates, and nothing is downloaded.
"""
import glob
import os
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Keys copied into the transformers config as they are: the catalog holds config.json's own
# names. Everything else in a catalog entry (source, notes, counts) is gpulint's bookkeeping.
CONFIG_KEYS = (
    "hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads", "head_dim",
    "intermediate_size", "vocab_size", "max_position_embeddings", "tie_word_embeddings",
    "rms_norm_eps", "rope_theta", "rope_scaling", "attention_bias", "mlp_bias",
    "use_sliding_window", "sliding_window", "max_window_layers",
)

# Dense decoder families whose transformers class is built from the keys above. A MoE or VLM entry
# needs more keys than these; refusing it is better than measuring a different model.
SUPPORTED_MODEL_TYPES = ("llama", "qwen2", "qwen3", "mistral")


def load_models(root=ROOT):
    """hf_id -> catalog entry, from every catalog/models/*.toml."""
    models = {}
    for path in sorted(glob.glob(os.path.join(root, "catalog", "models", "*.toml"))):
        with open(path, "rb") as handle:
            for entry in tomllib.load(handle).get("model", []):
                models[entry["hf_id"]] = entry
    return models


def hf_config_kwargs(entry, max_seq_len):
    """Keyword arguments for `transformers.AutoConfig.for_model(model_type, **kwargs)`."""
    model_type = entry.get("model_type")
    if model_type not in SUPPORTED_MODEL_TYPES:
        raise ValueError(f"{entry['hf_id']}: model_type '{model_type}' is not built by the harness "
                         f"(dense {', '.join(SUPPORTED_MODEL_TYPES)} only)")
    kwargs = {key: entry[key] for key in CONFIG_KEYS if key in entry}
    # The rotary tables are sized by max_position_embeddings; a run longer than the model's
    # context is not asked for by the grid, but must not index past them either.
    kwargs["max_position_embeddings"] = max(kwargs.get("max_position_embeddings", 0), max_seq_len)
    # Qwen2's q/k/v biases are implied by the class, not a config key (see the catalog's notes).
    kwargs["use_cache"] = False
    return model_type, kwargs


def load_gpus(root=ROOT):
    with open(os.path.join(root, "catalog", "gpus.toml"), "rb") as handle:
        return tomllib.load(handle).get("gpu", [])


def _squash(name):
    return "".join(ch for ch in name.lower() if ch not in " -_")


def canonical_gpu(device_name, gpus):
    """The catalog's canonical name for what torch/NVML report (e.g. "NVIDIA H100 80GB HBM3" ->
    "H100-80GB"), matched the way gpulint matches aliases; None when the catalog lacks it."""
    wanted = _squash(device_name)
    for gpu in gpus:
        names = [gpu.get("canonical", ""), gpu.get("smi_name", ""), gpu.get("name", "")]
        names += gpu.get("aliases", [])
        if any(_squash(name) == wanted for name in names if name):
            return gpu["canonical"]
    return None
