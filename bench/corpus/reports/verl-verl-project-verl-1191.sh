# https://github.com/verl-project/verl/issues/1191
# hardware: one GPU (type not named); rollout TP left at verl's default (2)
# error: AssertionError: rollout world_size: 1 is not divisible by infer_tp: 2
python3 -m verl.trainer.main_ppo \
  algorithm.adv_estimator=grpo \
  actor_rollout_ref.model.path=$MODEL_PATH \
  actor_rollout_ref.rollout.name=vllm \
  trainer.n_gpus_per_node=1 trainer.nnodes=1
