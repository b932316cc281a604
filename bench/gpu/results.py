"""Measured runs as calibration cases (schema: ../shared/calibration/README.md), appended to
bench/gpu/results/<GPU>.toml one case at a time.

Each case is written, flushed and fsynced as soon as its run ends: a device session that is cut
off keeps everything measured before the cut, and the next session resumes after it.
"""
import json
import math
import os
import tomllib

GIB = float(1 << 30)

HEADER = """\
# bench/gpu/results: peak GPU memory measured by bench/gpu/measure.py on real GPUs, one case per
# configuration of bench/gpu/grid.toml. Written by the harness as each run ended; do not edit by
# hand. Models are built from catalog/ with random weights (transformers from_config), so the
# architecture is exactly the one gpulint estimates. Schema: ../shared/calibration/README.md;
# `measured.peak_gib` is what the process added to the device's used memory (NVML, sampled), with
# torch's allocated and reserved peaks beside it.
"""


def gpulint_args(config, gpu):
    """The `gpulint estimate` question that poses the same run."""
    role = "train" if config.mode == "train" else "reference"
    settings = [("dtype", config.dtype), ("micro_batch", config.micro_batch),
                ("max_seq_len", config.max_seq_len), ("grad_accum", 1),
                ("grad_ckpt", config.grad_ckpt), ("attn_impl", config.attn_impl),
                ("gpus_per_node", 1), ("nodes", 1)]
    if config.mode == "train":
        settings.insert(1, ("optimizer", config.optimizer))
    if config.method == "lora":
        settings += [("lora_rank", config.lora_rank), ("lora_targets", config.lora_targets),
                     ("lora_dropout", 0.05)]
    # Fixed rows and packed rows both give every step one full shape: what gpulint's `packing`
    # means for memory (estimator/overhead.h, AllocatorSlack).
    if config.lengths in ("fixed", "packed"):
        settings.append(("packing", True))
    if config.alloc == "expandable":
        settings.append(("expandable_segments", True))
    args = ["--role", role, "--model", config.model, "--gpu", gpu]
    for name, value in settings:
        text = str(value).lower() if isinstance(value, bool) else str(value)
        args += ["--set", f"{name}={text}"]
    return args


def cap_verdict(per_gpu, cap_gib):
    """The estimate's verdict against a torch memory cap. The cap bounds the allocator's
    reservations, not the CUDA context, so the context the estimate adds (total - reserved) is
    taken off its device-total high end."""
    context = per_gpu["total"] - per_gpu["torch_reserved"]
    if per_gpu["torch_allocated"] > cap_gib:
        return "does not fit"
    if per_gpu["total_high"] - context <= cap_gib:
        return "fits"
    return "may not fit"


def process_peak_bytes(result, shared_device):
    """What nvidia-smi would show for the run's process: its own line of NVML's process list
    where NVML gives one, else the device's used memory less what was used before the run,
    which is the process's only when it had the device alone (None otherwise)."""
    if result.get("nvml_pid_peak_bytes") is not None:
        return result["nvml_pid_peak_bytes"]
    if shared_device:
        return None
    return result["nvml_process_peak_bytes"]


def case_record(config, result, gpu, command, shared_device=False):
    """The calibration case of one finished run. `result` is what the worker returned (or what
    the runner recorded when the worker died); `shared_device`: other runs may have used the
    device at the same time."""
    settings = {"dtype": config.dtype, "micro_batch": config.micro_batch,
                "max_seq_len": config.max_seq_len, "grad_accum": 1,
                "grad_ckpt": config.grad_ckpt, "attn_impl": config.attn_impl,
                "gpus_per_node": 1, "nodes": 1}
    if config.mode == "train":
        settings["optimizer"] = config.optimizer
    if config.method == "lora":
        settings.update(lora_rank=config.lora_rank, lora_targets=config.lora_targets)
    if config.lengths in ("fixed", "packed"):
        settings["packing"] = True
    if config.alloc == "expandable":
        settings["expandable_segments"] = True
    case = {
        "id": config.id,
        "kind": "measured",
        "source": "gpulint bench/gpu/measure.py (random weights, from catalog/)",
        "group": config.sweep,
        "workload": "train",
        "framework": "pytorch",
        "method": "forward" if config.mode == "forward" else config.method,
        "model": config.model,
        "gpu": gpu,
        "num_gpus": 1,
        "settings": settings,
    }
    outcome = result.get("outcome", "error")
    if outcome == "fit":
        case["measured"] = {"metric": "nvidia-smi", "scope": "per_gpu"}
        peak = process_peak_bytes(result, shared_device)
        if peak is not None:
            case["measured"]["peak_gib"] = peak / GIB
        case["measured"].update(allocated_gib=result["max_allocated_bytes"] / GIB,
                                reserved_gib=result["max_reserved_bytes"] / GIB)
    elif outcome == "oom":
        # What was held when the allocation failed: a floor, not the peak the run would need.
        case["measured"] = {"metric": "nvidia-smi", "scope": "per_gpu",
                            "reserved_at_oom_gib": result.get("max_reserved_bytes", 0) / GIB}
    case["outcome"] = outcome if outcome in ("fit", "oom") else "error"
    case["args"] = gpulint_args(config, gpu)
    if case["outcome"] == "error":
        case["skip_reason"] = "the run failed: " + result.get("error", "no result")[-400:]
    if config.memory_cap_gib:
        case["memory_cap_gib"] = config.memory_cap_gib
    if config.lengths != "fixed":
        case["lengths"] = config.lengths
    for key in ("steps_done", "num_alloc_retries", "expandable_segments", "nvml_pid_peak_bytes",
                "nvml_process_peak_bytes"):
        if result.get(key) is not None and (key != "nvml_process_peak_bytes" or
                                            not shared_device):
            case[key] = result[key]
    for key in ("device_name", "device_total_bytes", "nvml_baseline_bytes", "seconds"):
        if key in result:
            case[key] = result[key]
    if "versions" in result:
        case["versions"] = result["versions"]
    case["command"] = command
    notes = []
    if config.mode == "train" and config.optimizer == "sgd":
        notes.append("torch.optim.SGD without momentum: no optimizer state")
    if config.method == "lora":
        notes.append(f"peft LoRA r={config.lora_rank}, alpha={2 * config.lora_rank}, "
                     f"dropout 0.05, targets {config.lora_targets}")
    if config.dtype == "amp-bf16":
        notes.append("fp32 weights and optimizer, torch.autocast(bfloat16) forward")
    if config.lengths == "longtail":
        notes.append(f"{config.steps} steps of long-tailed lengths (bench/gpu/batches.py), each "
                     "batch padded to its longest; one batch reaches max_seq_len")
    if config.lengths == "packed":
        notes.append(f"{config.steps} steps of documents packed into rows of max_seq_len, "
                     "positions restarting per document (bench/gpu/batches.py)")
    if config.alloc == "expandable":
        notes.append("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True")
    if config.memory_cap_gib:
        notes.append(f"torch.cuda.set_per_process_memory_fraction: the allocator stops at "
                     f"{config.memory_cap_gib} GiB, as on a card of that size")
    if notes:
        case["notes"] = notes
    return case


def _toml_string(text):
    # json's escapes are TOML's, except that TOML wants DEL escaped too; ensure_ascii=False keeps
    # characters outside the BMP whole instead of as surrogate pairs, which TOML rejects.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(round(value, 4))
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{key} = {_toml_value(item)}" for key, item in value.items())
        return "{ " + inner + " }" if inner else "{}"
    raise TypeError(f"no TOML form for {type(value).__name__}")


def case_toml(case):
    """One `[[case]]` table, keys in the order given."""
    lines = ["", "[[case]]"]
    for key, value in case.items():
        lines.append(f"{key} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def measured_ids(path):
    """Ids already in a results file (none if it does not exist yet)."""
    if not os.path.exists(path):
        return set()
    with open(path, "rb") as handle:
        return {case["id"] for case in tomllib.load(handle).get("case", [])}


def append_case(path, case):
    """Appends one case durably. A new file starts with the header."""
    new = not os.path.exists(path)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "a", encoding="utf-8") as handle:
        if new:
            handle.write(HEADER)
        handle.write(case_toml(case))
        handle.flush()
        os.fsync(handle.fileno())
