#!/usr/bin/env python3
"""Measures peak GPU memory for the configurations of a grid, one child process per run, and
appends each result to bench/gpu/results/<GPU>.toml as soon as it is known.

    bench/gpu/measure.py check                 # the grid is valid; counts per sweep (no GPU)
    bench/gpu/measure.py list [--shard 2/4]    # the configuration ids
    bench/gpu/measure.py run [--budget-s 540]  # measure what is not measured yet

`run` skips ids already in the results file, so a sweep longer than one device command is done by
running the same command again until it reports nothing left. `--budget-s` stops starting runs
before the device's per-command limit, so no result is lost to the limit.

Needs (for `run` only) torch, transformers, peft and nvidia-ml-py; nothing is downloaded.
"""
import argparse
import os
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import catalog  # noqa: E402
import grid  # noqa: E402
import results  # noqa: E402
import runner  # noqa: E402


def run_grid(configs, models, results_path, gpu, measure, timeout_s, budget_s, log=print):
    """Measures every configuration not yet in `results_path`, in order, each in its own child.
    Returns (measured now, left for a later call)."""
    done = results.measured_ids(results_path)
    pending = [config for config in configs if config.id not in done]
    started = time.monotonic()
    longest_s = 0.0
    measured = 0
    for position, config in enumerate(pending):
        elapsed = time.monotonic() - started
        # Start a run only if the slowest run so far would still end inside the budget.
        if budget_s is not None and elapsed + longest_s > budget_s:
            left = len(pending) - position
            log(f"measure: budget of {budget_s} s reached; {left} left for the next call")
            return measured, left
        result = runner.run_in_child(measure, (config, models[config.model]), timeout_s)
        longest_s = max(longest_s, float(result.get("seconds", 0)))
        command = f"python3 bench/gpu/measure.py run --only {config.id}"
        case = results.case_record(config, result, gpu, command)
        results.append_case(results_path, case)
        measured += 1
        peak = case.get("measured", {}).get("peak_gib")
        shown = f"{peak:.2f} GiB" if peak is not None else case.get("skip_reason", "")[:80]
        log(f"measure: [{len(done) + measured}/{len(configs)}] {config.id}: "
            f"{case['outcome']} {shown} ({result.get('seconds', 0)} s)")
    return measured, 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("check", "list", "run"))
    parser.add_argument("--grid", default=os.path.join(HERE, "grid.toml"))
    parser.add_argument("--results", default=os.path.join(HERE, "results"),
                        help="folder of <GPU>.toml result files")
    parser.add_argument("--shard", help="i/n: only every n-th configuration, from the i-th")
    parser.add_argument("--only", nargs="+", help="only these configuration ids")
    parser.add_argument("--timeout-s", type=float, default=300, help="per configuration")
    parser.add_argument("--budget-s", type=float, help="stop starting runs after this many seconds")
    args = parser.parse_args(argv)

    models = catalog.load_models()
    try:
        configs = grid.load_grid(args.grid, models)
        for config in configs:
            catalog.hf_config_kwargs(models[config.model], config.max_seq_len)
        if args.shard:
            configs = grid.shard(configs, args.shard)
    except (grid.GridError, ValueError, OSError) as error:
        print(f"measure: error: {error}", file=sys.stderr)
        return 2
    if args.only:
        unknown = set(args.only) - {config.id for config in configs}
        if unknown:
            print(f"measure: error: not in the grid: {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        configs = [config for config in configs if config.id in args.only]

    if args.action == "check":
        counts = {}
        for config in configs:
            counts[config.sweep] = counts.get(config.sweep, 0) + 1
        for sweep, count in counts.items():
            print(f"{sweep:<28} {count:>4}")
        print(f"{'total':<28} {len(configs):>4}")
        return 0
    if args.action == "list":
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `list | head` is not an error
        for config in configs:
            print(config.id)
        return 0

    import worker  # torch and friends: only for `run`
    worker.preload()
    device_name = worker.device_name()
    gpu = catalog.canonical_gpu(device_name, catalog.load_gpus())
    if gpu is None:
        print(f"measure: error: GPU '{device_name}' is not in catalog/gpus.toml", file=sys.stderr)
        return 2
    results_path = os.path.join(args.results, f"{gpu}.toml")
    print(f"measure: {device_name} -> {gpu}; results in {results_path}")
    _, left = run_grid(configs, models, results_path, gpu, worker.measure, args.timeout_s,
                       args.budget_s)
    print("measure: nothing left to measure" if left == 0 else f"measure: {left} left")
    return 0


if __name__ == "__main__":
    sys.exit(main())
