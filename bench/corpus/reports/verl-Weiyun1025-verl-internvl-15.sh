# https://github.com/Weiyun1025/verl-internvl/issues/15 (a fork of verl, run as verl.trainer.main_ppo)
# hardware: not named
# error: AssertionError: max_token_len must be greater than the sequence length. Got max_token_len=16384 and max_seq_len=40960
python3 -m verl.trainer.main_ppo \
  algorithm.adv_estimator=grpo \
  data.train_batch_size=8 \
  data.max_prompt_length=8192 \
  data.max_response_length=32768 \
  actor_rollout_ref.model.path=$MODEL_PATH \
  actor_rollout_ref.model.use_remove_padding=True \
  actor_rollout_ref.actor.use_dynamic_bsz=True \
  actor_rollout_ref.actor.ppo_max_token_len_per_gpu=16384 \
  actor_rollout_ref.actor.ppo_mini_batch_size=8 \
  actor_rollout_ref.rollout.name=vllm
