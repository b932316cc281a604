"""The shapes of each step's batch: what a real trainer's data loader hands the model.

Real fine-tuning data is long-tailed: most samples are short, a few reach the length the
tokenizer truncates to. A padding collator (transformers' DataCollatorWithPadding,
DataCollatorForSeq2Seq) pads each batch to its own longest sample, so every step has another
shape, and PyTorch's caching allocator sees requests of a new size each step. A packing
collator concatenates documents into rows of exactly max_seq_len, so every step has one shape.

No torch here: the shapes are plain numbers, drawn from a seed that the configuration's id
fixes, so a rerun feeds the same batches and the tests run on the CPU.
"""
import math
import random
import zlib

# Lengths are drawn from a log-normal distribution whose median is an eighth of max_seq_len and
# whose sigma is 1 (about 2% of samples would be longer than max_seq_len and are truncated to
# it, as a tokenizer with truncation=True does). Public SFT sets have this shape: a median of a
# few hundred tokens and a tail past the cap.
MEDIAN_FRACTION = 1 / 8
SIGMA = 1.0
MIN_TOKENS = 16
PAD_TO_MULTIPLE_OF = 8  # DataCollatorForSeq2Seq(pad_to_multiple_of=8), as LLaMA-Factory sets it
# The step whose batch holds one sample of max_seq_len tokens whatever the draw gave: a long run
# meets its longest batch sooner or later, and the measured peak is compared with an estimate
# for that batch. Not the first step, where the optimizer's state is not allocated yet.
LONGEST_STEP = 7


def seed_of(config_id):
    return zlib.crc32(config_id.encode())


def draw_length(rng, max_seq_len):
    median = max_seq_len * MEDIAN_FRACTION
    tokens = int(math.exp(rng.gauss(math.log(median), SIGMA)))
    return max(MIN_TOKENS, min(max_seq_len, tokens))


def padded(tokens, max_seq_len):
    rounded = -(-tokens // PAD_TO_MULTIPLE_OF) * PAD_TO_MULTIPLE_OF
    return min(rounded, max_seq_len)


def padded_steps(config_id, micro_batch, max_seq_len, steps):
    """For each step, (padded length of the batch, [length of each sample])."""
    rng = random.Random(seed_of(config_id))
    out = []
    for step in range(steps):
        lengths = [draw_length(rng, max_seq_len) for _ in range(micro_batch)]
        if step == LONGEST_STEP % steps:
            lengths[0] = max_seq_len
        out.append((padded(max(lengths), max_seq_len), lengths))
    return out


def packed_steps(config_id, micro_batch, max_seq_len, steps):
    """For each step, one list per row of the document lengths packed into it; each row holds
    exactly max_seq_len tokens (the last document of a row is cut, as packing collators do)."""
    rng = random.Random(seed_of(config_id))
    out = []
    for _ in range(steps):
        rows = []
        for _ in range(micro_batch):
            row, used = [], 0
            while used < max_seq_len:
                tokens = min(draw_length(rng, max_seq_len), max_seq_len - used)
                row.append(tokens)
                used += tokens
            rows.append(row)
        out.append(rows)
    return out
