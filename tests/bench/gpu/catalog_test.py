"""bench/gpu/catalog.py: catalog entries become transformers configs with config.json's own
values, and torch's GPU names resolve to the catalog's canonical names."""
import unittest

import harness
import catalog


class HfConfigTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.models = catalog.load_models()

    def test_values_are_the_catalogs(self):
        model_type, kwargs = catalog.hf_config_kwargs(self.models["meta-llama/Llama-3.2-1B"], 2048)
        self.assertEqual(model_type, "llama")
        self.assertEqual((kwargs["hidden_size"], kwargs["num_hidden_layers"],
                          kwargs["num_key_value_heads"], kwargs["vocab_size"]),
                         (2048, 16, 8, 128256))
        self.assertTrue(kwargs["tie_word_embeddings"])
        self.assertEqual(kwargs["rope_scaling"]["rope_type"], "llama3")
        self.assertNotIn("source", kwargs)
        self.assertNotIn("params_computed_text", kwargs)

    def test_positions_cover_the_run(self):
        _, kwargs = catalog.hf_config_kwargs(self.models["Qwen/Qwen2.5-0.5B-Instruct"], 65536)
        self.assertEqual(kwargs["max_position_embeddings"], 65536)

    def test_moe_models_are_refused_not_misbuilt(self):
        with self.assertRaises(ValueError) as caught:
            catalog.hf_config_kwargs(self.models["Qwen/Qwen3-30B-A3B"], 2048)
        self.assertIn("qwen3_moe", str(caught.exception))


class GpuNameTest(unittest.TestCase):
    def test_driver_names_resolve(self):
        gpus = catalog.load_gpus()
        self.assertEqual(catalog.canonical_gpu("NVIDIA H100 80GB HBM3", gpus), "H100-80GB")
        self.assertEqual(catalog.canonical_gpu("NVIDIA A100-SXM4-40GB", gpus), "A100-40GB")
        self.assertEqual(catalog.canonical_gpu("NVIDIA H200", gpus), "H200-141GB")
        self.assertIsNone(catalog.canonical_gpu("Imaginary GPU 9000", gpus))


if __name__ == "__main__":
    unittest.main()
