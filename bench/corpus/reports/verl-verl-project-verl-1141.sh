# https://github.com/verl-project/verl/issues/1141
# hardware: 4x NVIDIA A10 24GB (torch: 21.99 GiB)
# error: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 98.00 MiB. GPU 0 has a total capacity of 21.99 GiB of which 33.44 MiB is free.
python3 -m verl.trainer.main_ppo \
  data.train_batch_size=64 data.max_prompt_length=512 data.max_response_length=256 \
  actor_rollout_ref.model.path=meta-llama/Llama-3.2-3B \
  actor_rollout_ref.actor.ppo_mini_batch_size=4 \
  actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1 \
  actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=1 \
  actor_rollout_ref.rollout.tensor_model_parallel_size=1 \
  actor_rollout_ref.rollout.gpu_memory_utilization=0.4 \
  actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=1 \
  critic.model.path=meta-llama/Llama-3.2-3B \
  critic.ppo_micro_batch_size_per_gpu=1 \
  trainer.n_gpus_per_node=4 trainer.nnodes=1
