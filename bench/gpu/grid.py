"""The measurement grid: bench/gpu/grid.toml expanded into one configuration per run.

A grid file holds `[[sweep]]` tables. Every key of a sweep is an axis; a list value is swept, a
scalar is fixed; the configurations are the cartesian product. Values are checked here, before
anything runs on a GPU, so that a typo costs a second and not a device session.

No torch here: this module runs on the CPU in the test suite.
"""
import itertools
import tomllib
from dataclasses import dataclass, field

# Axis name -> (type, allowed values or None, default). The names and values are the canonical
# settings of ../shared/calibration/README.md, so a configuration maps onto a calibration case
# and onto `gpulint estimate --set` without translation.
AXES = {
    "model": (str, None, None),
    "mode": (str, ("train", "forward"), "train"),
    "method": (str, ("full", "lora"), "full"),
    "dtype": (str, ("amp-bf16", "bf16", "fp32"), "amp-bf16"),
    "optimizer": (str, ("adamw", "sgd"), "adamw"),
    "lora_rank": (int, None, 0),
    "lora_targets": (str, ("all-linear", "q_proj,v_proj"), "all-linear"),
    "micro_batch": (int, None, 1),
    "max_seq_len": (int, None, 2048),
    "grad_ckpt": (bool, None, False),
    "attn_impl": (str, ("sdpa", "eager"), "sdpa"),
    # How long each step's sequences are (bench/gpu/batches.py): "fixed", every row max_seq_len
    # tokens; "longtail", lengths drawn from a long-tailed distribution and each batch padded to
    # its longest, as a padding collator does; "packed", documents concatenated into rows of
    # max_seq_len with positions restarting per document, as a packing collator does.
    "lengths": (str, ("fixed", "longtail", "packed"), "fixed"),
    # PyTorch's caching allocator as configured by PYTORCH_CUDA_ALLOC_CONF: "default", or
    # "expandable" (expandable_segments:True).
    "alloc": (str, ("default", "expandable"), "default"),
    # torch.cuda.set_per_process_memory_fraction as GiB: the allocator fails an allocation that
    # would take its reservations past this, after freeing its cache, as on a card of that size.
    # 0: the whole device. Runs with a cap can share the device (measure.py --parallel).
    "memory_cap_gib": (int, None, 0),
    # Three steps: the first allocates the optimizer's state, the second runs forward and
    # backward with that state resident, which is where a training step peaks.
    "steps": (int, None, 3),
}


class GridError(Exception):
    """A grid file that cannot be run; the message names the file and the sweep."""


@dataclass(frozen=True)
class Config:
    """One run: a model and the settings it is measured with."""
    sweep: str
    model: str
    mode: str
    method: str
    dtype: str
    optimizer: str
    lora_rank: int
    lora_targets: str
    micro_batch: int
    max_seq_len: int
    grad_ckpt: bool
    attn_impl: str
    lengths: str
    alloc: str
    memory_cap_gib: int
    steps: int
    tags: tuple = field(default=(), compare=False)

    @property
    def id(self):
        """A stable, readable name: the same configuration always gets the same id, so a rerun
        skips what is already measured."""
        short = self.model.split("/")[-1].lower()
        parts = [short, self.mode]
        if self.mode == "train":
            parts.append(f"lora{self.lora_rank}" if self.method == "lora" else "full")
            if self.method == "lora" and self.lora_targets != "all-linear":
                parts.append("qv")
            parts += [self.dtype, self.optimizer]
        else:
            parts.append(self.dtype)
        parts += [f"mb{self.micro_batch}", f"s{self.max_seq_len}",
                  "ckpt" if self.grad_ckpt else "nockpt", self.attn_impl]
        # The axes added after the first sweeps name themselves only when set, so the ids of
        # the runs already measured stay what they were.
        if self.lengths != "fixed":
            parts += [self.lengths, f"n{self.steps}"]
        if self.alloc != "default":
            parts.append(self.alloc)
        if self.memory_cap_gib:
            parts.append(f"cap{self.memory_cap_gib}")
        return "-".join(parts)


def _check_value(where, axis, value):
    kind, allowed, _ = AXES[axis]
    # bool is an int in Python: a `micro_batch = true` typo must not pass as 1.
    if type(value) is not kind:
        raise GridError(f"{where}: {axis} must be {kind.__name__}, got {value!r}")
    if allowed is not None and value not in allowed:
        raise GridError(f"{where}: {axis} = {value!r} is not one of {', '.join(allowed)}")
    if kind is int and value < (0 if axis in ("lora_rank", "memory_cap_gib") else 1):
        raise GridError(f"{where}: {axis} = {value} is out of range")


def expand_sweep(where, sweep, known_models):
    """The configurations of one `[[sweep]]` table, in file order of its axes."""
    name = sweep.get("name")
    if not isinstance(name, str) or not name:
        raise GridError(f"{where}: every sweep needs a name")
    where = f"{where}: sweep '{name}'"
    tags = sweep.get("tags", [])
    axes = {k: v for k, v in sweep.items() if k not in ("name", "tags", "models")}
    if "models" in sweep:
        axes["model"] = sweep["models"]
    for axis in axes:
        if axis not in AXES:
            raise GridError(f"{where}: unknown axis '{axis}' (known: {', '.join(AXES)})")
    if "model" not in axes:
        raise GridError(f"{where}: no model (set `models = [...]`)")
    values = {}
    for axis, (_, _, default) in AXES.items():
        raw = axes.get(axis, default)
        listed = raw if isinstance(raw, list) else [raw]
        if not listed:
            raise GridError(f"{where}: {axis} is an empty list")
        for value in listed:
            _check_value(where, axis, value)
        values[axis] = listed
    for model in values["model"]:
        if model not in known_models:
            raise GridError(f"{where}: model '{model}' is not in catalog/models")
    configs = []
    for combo in itertools.product(*values.values()):
        settings = dict(zip(values.keys(), combo))
        if settings["method"] == "lora" and settings["lora_rank"] == 0:
            raise GridError(f"{where}: method 'lora' needs lora_rank > 0")
        if settings["method"] == "full":
            settings["lora_rank"] = 0
        configs.append(Config(sweep=name, tags=tuple(tags), **settings))
    return configs


def parse_grid(text, path, known_models):
    """Every configuration of a grid file's text. Raises GridError naming `path`."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise GridError(f"{path}: {error}") from None
    unknown = set(data) - {"sweep"}
    if unknown:
        raise GridError(f"{path}: unknown top-level key(s): {', '.join(sorted(unknown))}")
    configs = []
    seen = {}
    for index, sweep in enumerate(data.get("sweep", [])):
        for config in expand_sweep(f"{path}: [[sweep]] #{index + 1}", sweep, known_models):
            if config.id in seen:
                # Two sweeps asking for the same run would measure it twice; say where.
                raise GridError(f"{path}: '{config.id}' is in sweeps '{seen[config.id]}' "
                                f"and '{config.sweep}'")
            seen[config.id] = config.sweep
            configs.append(config)
    if not configs:
        raise GridError(f"{path}: no [[sweep]] tables")
    return configs


def load_grid(path, known_models):
    with open(path, encoding="utf-8") as handle:
        return parse_grid(handle.read(), path, known_models)


def shard(configs, spec):
    """The configurations of shard "i/n" (1-based), dealt round-robin so that every shard gets a
    share of the slow, long-sequence runs."""
    try:
        index, count = (int(part) for part in spec.split("/"))
    except ValueError:
        raise GridError(f"--shard {spec!r}: expected i/n, e.g. 2/4") from None
    if not 1 <= index <= count:
        raise GridError(f"--shard {spec!r}: i must be between 1 and n")
    return configs[index - 1::count]
