# https://github.com/insait-institute/open-proof-corpus/issues/2
# hardware: 1 node x 8 GPUs per the script (GPU type not named)
# error: Training Script: assert config.data.train_batch_size >= config.actor_rollout_ref.actor.ppo_mini_batch_size
python3 -m verl.trainer.main_ppo \
  algorithm.adv_estimator=grpo \
  data.train_batch_size=16 \
  data.max_prompt_length=8096 data.max_response_length=14000 \
  actor_rollout_ref.model.path=deepseek-ai/DeepSeek-R1-0528-Qwen3-8B \
  actor_rollout_ref.model.enable_gradient_checkpointing=True \
  actor_rollout_ref.actor.use_dynamic_bsz=True \
  actor_rollout_ref.actor.ppo_max_token_len_per_gpu=40000 \
  actor_rollout_ref.actor.ppo_mini_batch_size=128 \
  actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=16 \
  actor_rollout_ref.actor.ulysses_sequence_parallel_size=2 \
  actor_rollout_ref.rollout.name=vllm \
  actor_rollout_ref.rollout.tensor_model_parallel_size=1 \
  actor_rollout_ref.rollout.gpu_memory_utilization=0.7 \
  actor_rollout_ref.rollout.max_num_batched_tokens=40000 \
  actor_rollout_ref.rollout.n=10 \
  trainer.n_gpus_per_node=8 trainer.nnodes=1
