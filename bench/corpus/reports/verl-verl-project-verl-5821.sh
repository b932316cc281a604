# https://github.com/verl-project/verl/issues/5821
# hardware: not named
# error: ValueError: train_batch_size (32) must be >= actor.ppo_mini_batch_size (64)
# GRPO with rollout.n 8; the thread gives these three values, the rest is verl's defaults
python3 -m verl.trainer.main_ppo \
  algorithm.adv_estimator=grpo \
  data.train_batch_size=32 \
  actor_rollout_ref.model.path=$MODEL_PATH \
  actor_rollout_ref.actor.ppo_mini_batch_size=64 \
  actor_rollout_ref.rollout.name=vllm \
  actor_rollout_ref.rollout.n=8
