# https://github.com/huggingface/open-r1/issues/236
# hardware: 4x L20 48GB (3 train processes + 1 GPU for vLLM)
# error: ValueError: The global train batch size (3 x 1) must be evenly divisible by the number of generations per prompt (8).
# trl: the traceback's trl-0.15.0.dev0
# gpulint: trl=0.15
accelerate launch --config_file recipes/accelerate_configs/zero3.yaml --num_processes 3 \
  src/open_r1/grpo.py \
  --model_name_or_path Qwen/Qwen2.5-1.5B-Instruct \
  --use_vllm true \
  --per_device_train_batch_size 1 --num_generations 8 \
  --bf16 true
