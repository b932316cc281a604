#!/bin/bash
# The guide's 0.5B variant: "batch 128 fits any GPU, even L40S; 256 on A100/H100/H200".
# gpulint: gpu=L40S
BATCH_SIZE=${BATCH_SIZE:-128}
accelerate launch src/main.py \
  --modelggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg Qwen/Qwenunch src/main.py \
  --modelggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg Qwen/Qwen2.5-0.5B-Instruct \
  --parser-type math \
  --evaluator-type math \
  --evaluator-model Qwen/Qwen2.5-0.5B-Instruct \
  --client-type hf \
  --num-samples 500 \
  --batch-size $BAT2.5-0.5B-Instruct \
  --parser-type math \
  --evaluator-type math \
  --evaluator-model Qwen/Qwen2.5-0.5B-Instruct \
  --client-type hf \
  --num-samples 500 \
  --batch-size $BATCH_SIZE \
  --max-seq-length 1024 \
  --bf16 \
  --num-epochs 3 \
  --output-dir ./test_output
