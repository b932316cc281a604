# https://github.com/OpenRLHF/OpenRLHF/issues/398
# hardware: 8x A100 40GB
# error: torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 112.00 MiB. GPU 7 has a total capacity of 39.39 GiB of which 14.00 MiB is free.
# actor/reward were local Llama-3-8B checkpoints (lora_model, llama3-8b-rm)
deepspeed --module openrlhf.cli.train_ppo \
  --pretrain meta-llama/Meta-Llama-3-8B \
  --reward_pretrain meta-llama/Meta-Llama-3-8B \
  --micro_train_batch_size 2 --train_batch_size 64 \
  --micro_rollout_batch_size 4 --rollout_batch_size 512 \
  --prompt_max_len 1024 --generate_max_len 1024 \
  --zero_stage 2 --bf16
