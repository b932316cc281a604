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

NVML_INTERVAL_S = 0.005


class PeakSampler(threading.Thread):
    """Polls NVML and keeps two maxima: the device's used memory, which is this process's only
    when it has the device alone, and this process's own line of NVML's process list (what
    nvidia-smi prints per process), which holds when several runs share the device. The second
    is None where NVML does not report processes (some virtual machines and containers)."""

    def __init__(self, pynvml, handle, pid):
        super().__init__(daemon=True)
        self.pynvml = pynvml
        self.handle = handle
        self.pid = pid
        self.peak_bytes = 0
        self.pid_peak_bytes = None
        self.stop_event = threading.Event()

    def used_bytes(self):
        return self.pynvml.nvmlDeviceGetMemoryInfo(self.handle).used

    def pid_bytes(self):
        try:
            processes = self.pynvml.nvmlDeviceGetComputeRunningProcesses(self.handle)
        except self.pynvml.NVMLError:
            return None
        for process in processes:
            if process.pid == self.pid and isinstance(process.usedGpuMemory, int):
                return process.usedGpuMemory
        return None

    def sample(self):
        self.peak_bytes = max(self.peak_bytes, self.used_bytes())
        own = self.pid_bytes()
        if own is not None:
            self.pid_peak_bytes = max(self.pid_peak_bytes or 0, own)

    def run(self):
        while not self.stop_event.is_set():
            self.sample()
            self.stop_event.wait(NVML_INTERVAL_S)

    def finish(self):
        self.stop_event.set()
        self.join()
        self.sample()
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


def device_total_bytes():
    """The device's memory from NVML; safe in the parent (no CUDA context)."""
    import pynvml
    pynvml.nvmlInit()
    try:
        return pynvml.nvmlDeviceGetMemoryInfo(
            pynvml.nvmlDeviceGetHandleByIndex(nvml_device_index())).total
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


def step_batches(config, vocab_size):
    """Yields each step's model inputs as a trainer's collator would make them (batches.py)."""
    import torch
    import batches
    steps, mb, length = config.steps, config.micro_batch, config.max_seq_len
    if config.lengths == "fixed":
        tokens = torch.randint(0, vocab_size, (mb, length), device="cuda")
        for _ in range(steps):
            yield {"input_ids": tokens, "labels": tokens}
    elif config.lengths == "longtail":
        for padded, lengths in batches.padded_steps(config.id, mb, length, steps):
            tokens = torch.randint(0, vocab_size, (mb, padded), device="cuda")
            mask = torch.zeros((mb, padded), dtype=torch.long, device="cuda")
            for row, tokens_in_row in enumerate(lengths):
                mask[row, :tokens_in_row] = 1  # right padding
            labels = tokens.masked_fill(mask == 0, -100)
            yield {"input_ids": tokens, "attention_mask": mask, "labels": labels}
    else:  # packed: positions restart per document; a document's first token has no label
        for rows in batches.packed_steps(config.id, mb, length, steps):
            tokens = torch.randint(0, vocab_size, (mb, length), device="cuda")
            positions = torch.cat([torch.cat([torch.arange(n) for n in row]) for row in rows])
            positions = positions.view(mb, length).to("cuda")
            labels = tokens.masked_fill(positions == 0, -100)
            yield {"input_ids": tokens, "position_ids": positions, "labels": labels}


def run_steps(config, model, vocab_size, progress):
    import torch
    train = config.mode == "train"
    if train:
        model.train()
        params = [p for p in model.parameters() if p.requires_grad]
        optimizer = torch.optim.AdamW(params, lr=1e-5) if config.optimizer == "adamw" else \
            torch.optim.SGD(params, lr=1e-5)
    else:
        model.eval()
    autocast = torch.autocast("cuda", dtype=torch.bfloat16) if config.dtype == "amp-bf16" else \
        contextlib.nullcontext()
    # Labels in both modes: the loss upcasts the logits to fp32, as a trainer does and as a
    # reference model computing log-probabilities does.
    with torch.set_grad_enabled(train):
        for batch in step_batches(config, vocab_size):
            with autocast:
                loss = model(**batch).loss
            if train:
                loss.backward()
                optimizer.step()
                optimizer.zero_grad(set_to_none=True)
            del loss, batch
            progress["steps_done"] += 1
    torch.cuda.synchronize()


def configure_allocator(config):
    """PYTORCH_CUDA_ALLOC_CONF for this run, set before CUDA starts (the allocator reads it
    once); the parent imported torch without starting CUDA, so the child's setting holds."""
    expandable = config.alloc == "expandable"
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = f"expandable_segments:{expandable}"
    os.environ.pop("PYTORCH_ALLOC_CONF", None)


def apply_allocator_settings(config):
    """The same setting again through torch, after CUDA starts and before the first allocation,
    in case this torch read the variable when the parent imported it; the result records the
    segments' kind (expandable_in_effect) either way."""
    import torch
    # torch 2.9 moved the setter to the accelerator-generic allocator config and deprecated the
    # CUDA one (a FutureWarning per run on torch 2.11).
    setter = getattr(torch._C, "_accelerator_setAllocatorSettings", None) or \
        getattr(torch.cuda.memory, "_set_allocator_settings", None)
    if setter is not None:
        setter(f"expandable_segments:{config.alloc == 'expandable'}")


def expandable_in_effect():
    """Whether the allocator's segments are expandable, read from its snapshot (None when this
    torch's snapshot does not say)."""
    import torch
    flags = [segment.get("is_expandable") for segment in torch.cuda.memory_snapshot()]
    flags = [flag for flag in flags if flag is not None]
    return any(flags) if flags else None


def measure(job):
    """The runner's child function: `job` is (Config, catalog entry); returns the result dict."""
    config, entry = job
    configure_allocator(config)
    import pynvml
    import torch
    pynvml.nvmlInit()
    handle = pynvml.nvmlDeviceGetHandleByIndex(nvml_device_index())
    sampler = PeakSampler(pynvml, handle, os.getpid())
    baseline_bytes = sampler.used_bytes()  # before this process creates its CUDA context
    sampler.start()
    result = {"nvml_baseline_bytes": baseline_bytes, "versions": versions()}
    progress = {"steps_done": 0}
    try:
        torch.cuda.init()
        apply_allocator_settings(config)
        if config.memory_cap_gib:
            total = torch.cuda.get_device_properties(0).total_memory
            torch.cuda.set_per_process_memory_fraction(min(1.0, config.memory_cap_gib * 2**30 / total))
        model, vocab_size = build_model(config, entry)
        run_steps(config, model, vocab_size, progress)
        result["outcome"] = "fit"
    except Exception as error:  # noqa: BLE001 - an OOM is an outcome; anything else is recorded
        if not is_out_of_memory(error):
            raise
        result["outcome"] = "oom"
        result["error"] = str(error).splitlines()[0][:300]
    peak_bytes = sampler.finish()
    result.update(
        steps_done=progress["steps_done"],
        nvml_process_peak_bytes=peak_bytes - baseline_bytes,
        max_allocated_bytes=torch.cuda.max_memory_allocated(),
        max_reserved_bytes=torch.cuda.max_memory_reserved(),
        num_alloc_retries=torch.cuda.memory_stats().get("num_alloc_retries", 0),
        expandable_segments=expandable_in_effect(),
        device_name=torch.cuda.get_device_name(),
        device_total_bytes=pynvml.nvmlDeviceGetMemoryInfo(handle).total)
    if sampler.pid_peak_bytes is not None:
        result["nvml_pid_peak_bytes"] = sampler.pid_peak_bytes
    pynvml.nvmlShutdown()
    return result
