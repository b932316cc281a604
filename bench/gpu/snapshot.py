#!/usr/bin/env python3
"""Explains one configuration's peak: runs it like measure.py with PyTorch's allocator history on,
then lists the tensors alive at the moment of the peak, grouped by the Python line that made them.

    bench/gpu/snapshot.py CONFIG_ID [CONFIG_ID ...] [--top 15]

Where the estimate and a measurement disagree, this names the tensor the estimate is missing or
counting twice. Needs a GPU and what measure.py needs; nothing is written.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import catalog  # noqa: E402
import grid  # noqa: E402
import runner  # noqa: E402

GIB = float(1 << 30)


def frame_label(frames):
    """The innermost frame outside torch's own Python (the model's or the loss's line), with the
    torch function it called."""
    inner = ""
    for frame in frames:
        name = frame.get("filename", "")
        if "/torch/" in name and not inner:
            inner = frame.get("name", "")
        if "/torch/" not in name and name and not name.startswith("<"):
            short = "/".join(name.split("/")[-2:])
            return f"{short}:{frame.get('line')} {frame.get('name')} [{inner}]"
    return inner or "?"


def live_at_peak(trace):
    """(peak bytes, {address: (size, frames)}) replaying alloc / free events in order."""
    live, current, peak, peak_index = {}, 0, 0, -1
    for index, event in enumerate(trace):
        if event["action"] == "alloc":
            current += event["size"]
            if current > peak:
                peak, peak_index = current, index
        elif event["action"] == "free_requested":
            current -= event["size"]
    for event in trace[:peak_index + 1]:
        if event["action"] == "alloc":
            live[event["addr"]] = (event["size"], event.get("frames", []))
        elif event["action"] == "free_requested":
            live.pop(event["addr"], None)
    return peak, live


def explain(job):
    config, entry, top = job
    import torch
    import worker
    worker.configure_allocator(config)
    torch.cuda.init()
    torch.cuda.memory._record_memory_history(enabled="all", context="all", stacks="python",
                                            max_entries=2_000_000)
    model, vocab_size = worker.build_model(config, entry)
    before = torch.cuda.memory_allocated()  # weights (and adapters) already there
    worker.run_steps(config, model, vocab_size, {"steps_done": 0})
    snapshot = torch.cuda.memory._snapshot()
    torch.cuda.memory._record_memory_history(enabled=None)
    trace = snapshot["device_traces"][torch.cuda.current_device()]
    peak, live = live_at_peak(trace)
    groups = {}
    for size, frames in live.values():
        label = frame_label(frames)
        total, count = groups.get(label, (0, 0))
        groups[label] = (total + size, count + 1)
    rows = sorted(groups.items(), key=lambda item: -item[1][0])[:top]
    lines = [f"{config.id}: max_allocated {torch.cuda.max_memory_allocated() / GIB:.2f} GiB, "
             f"traced peak {peak / GIB:.2f} GiB, {before / GIB:.2f} GiB after building the model"]
    lines += [f"  {total / GIB:8.3f} GiB {count:6d}x  {label}" for label, (total, count) in rows]
    return {"outcome": "fit", "text": "\n".join(lines)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="+")
    parser.add_argument("--grid", default=os.path.join(HERE, "grid.toml"))
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args(argv)
    models = catalog.load_models()
    configs = {config.id: config for config in grid.load_grid(args.grid, models)}
    unknown = [config_id for config_id in args.ids if config_id not in configs]
    if unknown:
        print(f"snapshot: error: not in the grid: {', '.join(unknown)}", file=sys.stderr)
        return 2
    import worker
    worker.preload()
    for config_id in args.ids:
        config = configs[config_id]
        result = runner.run_in_child(explain, (config, models[config.model], args.top), 600)
        print(result.get("text") or result.get("error", "no result"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
