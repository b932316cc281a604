"""bench/gpu/grid.py: grid files expand into checked configurations; bad ones fail before a GPU
is touched, naming the file and the sweep."""
import unittest

import harness
import catalog
import grid

MODELS = {"Qwen/Qwen3-0.6B": {}, "meta-llama/Llama-3.2-1B": {}}


def parse(text):
    return grid.parse_grid(text, "g.toml", MODELS)


class ExpandTest(unittest.TestCase):
    def test_lists_are_swept_and_scalars_fixed(self):
        configs = parse('[[sweep]]\nname = "a"\nmodels = ["Qwen/Qwen3-0.6B", '
                        '"meta-llama/Llama-3.2-1B"]\nmicro_batch = [1, 2, 4]\ngrad_ckpt = true\n')
        self.assertEqual(len(configs), 6)
        self.assertEqual({c.micro_batch for c in configs}, {1, 2, 4})
        self.assertTrue(all(c.grad_ckpt for c in configs))

    def test_unset_axes_take_the_defaults(self):
        (config,) = parse('[[sweep]]\nname = "a"\nmodels = "Qwen/Qwen3-0.6B"\n')
        self.assertEqual((config.mode, config.method, config.dtype, config.optimizer),
                         ("train", "full", "amp-bf16", "adamw"))
        self.assertEqual((config.micro_batch, config.max_seq_len, config.steps), (1, 2048, 3))

    def test_id_names_every_value(self):
        (config,) = parse('[[sweep]]\nname = "a"\nmodels = "Qwen/Qwen3-0.6B"\nmethod = "lora"\n'
                          'lora_rank = 64\ndtype = "bf16"\nmicro_batch = 4\nmax_seq_len = 512\n'
                          'grad_ckpt = true\nattn_impl = "eager"\n')
        self.assertEqual(config.id, "qwen3-0.6b-train-lora64-bf16-adamw-mb4-s512-ckpt-eager")

    def test_new_axes_name_themselves_only_when_set(self):
        (plain,) = parse('[[sweep]]\nname = "a"\nmodels = "Qwen/Qwen3-0.6B"\n')
        self.assertEqual(plain.id, "qwen3-0.6b-train-full-amp-bf16-adamw-mb1-s2048-nockpt-sdpa")
        (varied,) = parse('[[sweep]]\nname = "a"\nmodels = "Qwen/Qwen3-0.6B"\n'
                          'lengths = "longtail"\nsteps = 100\nalloc = "expandable"\n'
                          'memory_cap_gib = 32\n')
        self.assertEqual(varied.id, plain.id + "-longtail-n100-expandable-cap32")

    def test_full_runs_ignore_a_swept_lora_rank(self):
        configs = parse('[[sweep]]\nname = "a"\nmodels = "Qwen/Qwen3-0.6B"\nlora_rank = [8]\n')
        self.assertEqual(configs[0].lora_rank, 0)

    def test_shards_are_disjoint_and_cover_the_grid(self):
        configs = parse('[[sweep]]\nname = "a"\nmodels = "Qwen/Qwen3-0.6B"\n'
                        'micro_batch = [1, 2, 3, 4, 5, 6, 7]\n')
        shards = [grid.shard(configs, f"{i}/3") for i in (1, 2, 3)]
        ids = [c.id for part in shards for c in part]
        self.assertEqual(sorted(ids), sorted(c.id for c in configs))
        self.assertEqual(len(ids), len(set(ids)))


class RejectTest(unittest.TestCase):
    CASES = [
        ('[[sweep]]\nname = "a"\nmodels = "Qwen/Qwen3-0.6B"\nmicro_bach = 2\n', "unknown axis 'micro_bach'"),
        ('[[sweep]]\nname = "a"\nmodels = "Qwen/Qwen3-0.6B"\nmicro_batch = true\n', "micro_batch must be int"),
        ('[[sweep]]\nname = "a"\nmodels = "Qwen/Qwen3-0.6B"\nmicro_batch = 0\n', "out of range"),
        ('[[sweep]]\nname = "a"\nmodels = "Qwen/Qwen3-0.6B"\ndtype = "fp8"\n', "dtype = 'fp8' is not one of"),
        ('[[sweep]]\nname = "a"\nmodels = "Qwen/Qwen3-0.6B"\nmicro_batch = []\n', "empty list"),
        ('[[sweep]]\nname = "a"\nmodels = "Qwen/Qwen3-0.6B"\nlengths = "random"\n', "lengths = 'random'"),
        ('[[sweep]]\nname = "a"\nmodels = "Qwen/Qwen3-0.6B"\nmemory_cap_gib = -1\n', "out of range"),
        ('[[sweep]]\nname = "a"\nmodels = "nobody/Model-1B"\n', "'nobody/Model-1B' is not in catalog"),
        ('[[sweep]]\nname = "a"\nmodels = "Qwen/Qwen3-0.6B"\nmethod = "lora"\n', "needs lora_rank"),
        ('[[sweep]]\nname = "a"\n', "no model"),
        ('[[sweep]]\nmodels = "Qwen/Qwen3-0.6B"\n', "needs a name"),
        ('[[sweep]]\nname = "a"\nmodels = "Qwen/Qwen3-0.6B"\n[[sweep]]\nname = "b"\n'
         'models = "Qwen/Qwen3-0.6B"\n', "in sweeps 'a' and 'b'"),
        ('steps = 3\n', "unknown top-level key"),
        ('', "no [[sweep]] tables"),
        ('[[sweep]\n', "g.toml: "),
    ]

    def test_each_mistake_is_named(self):
        for text, expected in self.CASES:
            with self.subTest(expected=expected):
                with self.assertRaises(grid.GridError) as caught:
                    parse(text)
                self.assertIn(expected, str(caught.exception))
                self.assertTrue(str(caught.exception).startswith("g.toml"))

    def test_bad_shard_specs(self):
        for spec in ("0/3", "4/3", "x", "1/"):
            with self.subTest(spec=spec), self.assertRaises(grid.GridError):
                grid.shard([], spec)


class ShippedGridTest(unittest.TestCase):
    """bench/gpu/grid.toml itself covers what the measurements are for (issue 11)."""

    @classmethod
    def setUpClass(cls):
        cls.models = catalog.load_models()
        cls.configs = grid.load_grid(f"{harness.ROOT}/bench/gpu/grid.toml", cls.models)

    def test_enough_runs(self):
        self.assertGreaterEqual(len(self.configs), 150)

    def test_every_model_builds_from_the_catalog(self):
        for config in self.configs:
            catalog.hf_config_kwargs(self.models[config.model], config.max_seq_len)

    def test_covers_the_axes(self):
        train = [c for c in self.configs if c.mode == "train"]
        self.assertTrue({"Qwen2.5", "Qwen3", "Llama"} <= {c.model.split("/")[-1].split("-")[0]
                                                         for c in self.configs})
        self.assertTrue({1, 2, 4, 8} <= {c.micro_batch for c in train})
        lengths = {c.max_seq_len for c in train}
        self.assertEqual((min(lengths), max(lengths)), (512, 16384))
        self.assertEqual({c.grad_ckpt for c in train}, {True, False})
        self.assertEqual({c.attn_impl for c in train}, {"sdpa", "eager"})
        self.assertTrue({"amp-bf16", "bf16"} <= {c.dtype for c in train if c.method == "full"})
        self.assertTrue({"adamw", "sgd"} <= {c.optimizer for c in train})
        self.assertTrue({8, 64} <= {c.lora_rank for c in train if c.method == "lora"})
        self.assertTrue(any(c.mode == "forward" for c in self.configs))

    def test_long_runs_cover_what_real_data_does(self):
        """Issue 23: long runs on varying lengths, packing on and off, with and without
        expandable segments, some of them past their memory cap."""
        long = [c for c in self.configs if c.lengths != "fixed"]
        self.assertGreaterEqual(len(long), 150)
        self.assertTrue(all(c.steps >= 100 for c in long))
        self.assertEqual({c.lengths for c in long}, {"longtail", "packed"})
        self.assertEqual({c.alloc for c in long}, {"default", "expandable"})
        self.assertEqual({c.method for c in long}, {"full", "lora"})
        self.assertTrue(all(c.memory_cap_gib for c in long))

    def test_sizes_span_half_a_billion_to_eight(self):
        sizes = {self.models[c.model]["params_computed_text"] for c in self.configs}
        self.assertLess(min(sizes), 0.6e9)
        self.assertGreater(max(sizes), 7.5e9)
        self.assertLess(max(sizes), 8.5e9)  # every model fits one GPU for LoRA or forward


if __name__ == "__main__":
    unittest.main()
