# https://github.com/huggingface/open-r1/issues/249
# hardware: 8 GPUs, 7 training processes and one for vLLM (the GPU model is not stated)
# error: ValueError: The global train batch size (7 x 1) must be evenly divisible by the number of generations per prompt (8). Given the current train batch size, the valid values for the number of generations are: [7].
# trl: the raise at grpo_trainer.py line 321, as in #236 on trl-0.15.0.dev0
# gpulint: trl=0.15
accelerate launch --config_file recipes/accelerate_configs/zero3.yaml --num_processes 7 \
  src/open_r1/grpo.py \
  --model_name_or_path Qwen/Qwen2.5-1.5B-Instruct \
  --use_vllm true \
  --per_device_train_batch_size 1 \
  --bf16 true
