"""One measurement on the GPU, run inside its own child process (runner.py): build the model from
the catalog with random weights, run a few training steps (forward, backward, optimizer step) or
forward passes, and read the peaks.

Three peaks are recorded, because they answer different questions (the calibration README):
torch.cuda.max_memory_allocated (live tensors), max_memory_reserved (the caching allocator's
segments) and the device's used memory from NVML, sampled every few milliseconds on a thread,
minus what was used before this process touched CUDA: that last one adds the CUDA context,
cuBLAS/cuDNN workspaces and fragmentation, which is what nvidia-smi shows and what gpulint's
`total` predicts.

Needs torch, transformers, peft and nvidia-ml-py; imported inside the functions so that the rest
of the harness (and its tests) runs on a machine without them.
"""
import contextlib
import os
import platform
import threading

from catalog import hf_config_kwargs

NVML_INTERVAL_S = 0.002


class PeakSampler(threading.Thread):
    """Polls NVML's used memory of one device and keeps the maximum."""

    def __init__(self, pynvml, handle):
        super().__init__(daemon=True)
        self.pynvml = pynvml
        self.handle = handle
        self.peak_bytes = 0
        self.stop_event = threading.Event()

    def used_bytes(self):
        return self.pynvml.nvmlDeviceGetMemoryInfo(self.handle).used

    def run(self):
        while not self.stop_event.is_set():
            self.peak_bytes = max(self.peak_bytes, self.used_bytes())
            self.stop_event.wait(NVML_INTERVAL_S)

    def finish(self):
        self.stop_event.set()
        self.join()
        self.peak_bytes = max(self.peak_bytes, self.used_bytes())
        return self.peak_bytes


def preload():
    """Imports the heavy modules in the parent, before it forks, without initialising CUDA."""
    import peft  # noqa: F401
    import pynvml  # noqa: F401
    import torch  # noqa: F401
    import transformers  # noqa: F401
    from transformers import AutoModelForCausalLM  # noqa: F401


def nvml_device_index():
    # The harness runs one process on one device; CUDA_VISIBLE_DEVICES=N picks NVML's device N.
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0].strip()
    return int(visible) if visible.isdigit() else 0


def device_name():
    """The device's name from NVML; safe in the parent (no CUDA context)."""
    import pynvml
    pynvml.nvmlInit()
    try:
        handle = pynvml.nvmlDeviceGetHandleByIndex(nvml_device_index())
        name = pynvml.nvmlDeviceGetName(handle)
        return name.decode() if isinstance(name, bytes) else name
    finally:
        pynvml.nvmlShutdown()


def versions():
    import peft
    import pynvml
    import torch
    import transformers
    driver = pynvml.nvmlSystemGetDriverVersion()
    return {"python": platform.python_version(), "torch": torch.__version__,
            "cuda": torch.version.cuda or "", "transformers": transformers.__version__,
            "peft": peft.__version__,
            "driver": driver.decode() if isinstance(driver, bytes) else driver}


def is_out_of_memory(error):
    import torch
    if isinstance(error, torch.cuda.OutOfMemoryError):
        return True
    # cuBLAS and some fused kernels report a failed allocation as a plain RuntimeError.
    text = str(error)
    return "out of memory" in text or "CUBLAS_STATUS_ALLOC_FAILED" in text


def build_model(config, entry):
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM
    model_type, kwargs = hf_config_kwargs(entry, config.max_seq_len)
    hf_config = AutoConfig.for_model(model_type, **kwargs)
    # amp-bf16 keeps fp32 weights (the master copy) and computes in bf16 under autocast; bf16
    # stores everything in bf16, as a model loaded in bf16 and trained by the HF Trainer does.
    weight_dtype = torch.bfloat16 if config.dtype == "bf16" else torch.float32
    # The default dtype rather than from_config's dtype keyword, whose name changed between
    # transformers releases (torch_dtype, then dtype).
    default_dtype = torch.get_default_dtype()
    torch.set_default_dtype(weight_dtype)
    try:
        with torch.device("cuda"):
            model = AutoModelForCausalLM.from_config(hf_config,
                                                     attn_implementation=config.attn_impl)
    finally:
        torch.set_default_dtype(default_dtype)
    # A run that silently measured another set-up would be a wrong answer, not a failure.
    dtypes = {p.dtype for p in model.parameters()}
    if dtypes != {weight_dtype}:
        raise RuntimeError(f"parameters are {dtypes}, wanted {weight_dtype}")
    if model.config._attn_implementation != config.attn_impl:
        raise RuntimeError(f"attention is {model.config._attn_implementation}, "
                           f"wanted {config.attn_impl}")
    if config.mode == "train" and config.grad_ckpt:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if config.method == "lora":
        from peft import LoraConfig, get_peft_model
        targets = "all-linear" if config.lora_targets == "all-linear" else \
            config.lora_targets.split(",")
        model = get_peft_model(model, LoraConfig(
            r=config.lora_rank, lora_alpha=2 * config.lora_rank, lora_dropout=0.05,
            target_modules=targets, task_type="CAUSAL_LM"))
    return model, hf_config.vocab_size


def run_steps(config, model, vocab_size):
    import torch
    train = config.mode == "train"
    if train:
        model.train()
        params = [p for p in model.parameters() if p.requires_grad]
        optimizer = torch.optim.AdamW(params, lr=1e-5) if config.optimizer == "adamw" else \
            torch.optim.SGD(params, lr=1e-5)
    else:
        model.eval()
    tokens = torch.randint(0, vocab_size, (config.micro_batch, config.max_seq_len), device="cuda")
    autocast = torch.autocast("cuda", dtype=torch.bfloat16) if config.dtype == "amp-bf16" else \
        contextlib.nullcontext()
    # Labels in both modes: the loss upcasts the logits to fp32, as a trainer does and as a
    # reference model computing log-probabilities does.
    with torch.set_grad_enabled(train):
        for _ in range(config.steps):
            with autocast:
                loss = model(input_ids=tokens, labels=tokens).loss
            if train:
                loss.backward()
                optimizer.step()
                optimizer.zero_grad(set_to_none=True)
            del loss
    torch.cuda.synchronize()


def measure(job):
    """The runner's child function: `job` is (Config, catalog entry); returns the result dict."""
    config, entry = job
    import pynvml
    import torch
    pynvml.nvmlInit()
    handle = pynvml.nvmlDeviceGetHandleByIndex(nvml_device_index())
    sampler = PeakSampler(pynvml, handle)
    baseline_bytes = sampler.used_bytes()  # before this process creates its CUDA context
    sampler.start()
    result = {"nvml_baseline_bytes": baseline_bytes, "versions": versions()}
    try:
        torch.cuda.init()
        model, vocab_size = build_model(config, entry)
        run_steps(config, model, vocab_size)
        result["outcome"] = "fit"
    except Exception as error:  # noqa: BLE001 - an OOM is an outcome; anything else is recorded
        if not is_out_of_memory(error):
            raise
        result["outcome"] = "oom"
        result["error"] = str(error).splitlines()[0][:300]
    peak_bytes = sampler.finish()
    result.update(
        nvml_process_peak_bytes=peak_bytes - baseline_bytes,
        max_allocated_bytes=torch.cuda.max_memory_allocated(),
        max_reserved_bytes=torch.cuda.max_memory_reserved(),
        device_name=torch.cuda.get_device_name(),
        device_total_bytes=pynvml.nvmlDeviceGetMemoryInfo(handle).total)
    pynvml.nvmlShutdown()
    return result
