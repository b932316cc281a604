"""bench/gpu/batches.py: each step's shapes are what a padding or packing collator makes of
long-tailed data, the same for every rerun of a configuration."""
import statistics
import unittest

import harness
import batches


class PaddedTest(unittest.TestCase):
    def test_each_batch_is_padded_to_its_longest_sample_rounded_to_8(self):
        for padded, lengths in batches.padded_steps("a", 4, 2048, 100):
            self.assertEqual(len(lengths), 4)
            self.assertLessEqual(padded, 2048)
            self.assertGreaterEqual(padded, max(lengths))
            self.assertLess(padded - max(lengths), 8)
            self.assertTrue(padded % 8 == 0 or padded == 2048)

    def test_the_longest_batch_is_met_and_shapes_vary(self):
        steps = batches.padded_steps("a", 2, 2048, 100)
        self.assertEqual(steps[batches.LONGEST_STEP][0], 2048)
        self.assertGreater(len({padded for padded, _ in steps}), 50)

    def test_lengths_are_long_tailed_around_an_eighth_of_the_cap(self):
        lengths = [n for _, row in batches.padded_steps("b", 8, 4096, 200) for n in row]
        self.assertLess(abs(statistics.median(lengths) - 512) / 512, 0.2)
        self.assertGreater(statistics.mean(lengths), statistics.median(lengths))
        self.assertTrue(all(batches.MIN_TOKENS <= n <= 4096 for n in lengths))

    def test_a_configuration_always_gets_the_same_batches(self):
        self.assertEqual(batches.padded_steps("x", 4, 1024, 20),
                         batches.padded_steps("x", 4, 1024, 20))
        self.assertNotEqual(batches.padded_steps("x", 4, 1024, 20),
                            batches.padded_steps("y", 4, 1024, 20))

    def test_a_run_shorter_than_the_longest_step_still_meets_the_cap(self):
        steps = batches.padded_steps("a", 1, 512, 3)
        self.assertIn(512, [padded for padded, _ in steps])


class PackedTest(unittest.TestCase):
    def test_every_row_holds_exactly_max_seq_len_tokens(self):
        for rows in batches.packed_steps("p", 4, 2048, 50):
            self.assertEqual(len(rows), 4)
            for row in rows:
                self.assertEqual(sum(row), 2048)
                self.assertTrue(all(n >= 1 for n in row))

    def test_rows_hold_several_documents(self):
        rows = [row for step in batches.packed_steps("p", 4, 2048, 50) for row in step]
        self.assertGreater(statistics.mean(len(row) for row in rows), 3)


if __name__ == "__main__":
    unittest.main()
