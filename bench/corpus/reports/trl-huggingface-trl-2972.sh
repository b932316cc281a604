# https://github.com/huggingface/trl/issues/2972
# hardware: 4x H20 96GB
# error: I use GRPOtrainer to train, but cuda out of memory. (first step 40GB per GPU, OOM at the second step)
# the thread's GRPOConfig/GRPOTrainer script, its arguments as flags; "Qwen7B" read as Qwen2.5-7B-Instruct, no DeepSpeed/FSDP shown
accelerate launch --num_processes 4 train_grpo.py \
  --model_name_or_path Qwen/Qwen2.5-7B-Instruct \
  --bf16 true --per_device_train_batch_size 1 --gradient_accumulation_steps 1 \
  --num_generations 2 --max_prompt_length 256 --max_completion_length 512
