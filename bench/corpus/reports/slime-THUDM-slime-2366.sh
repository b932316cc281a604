# https://github.com/THUDM/slime/pull/2366
# hardware: not named
# error: bare AssertionError at megatron/core/optimizer_param_scheduler.py (`assert self.lr_decay_steps > 0`, no message)
python3 train.py \
  --num-rollout 2 --rollout-batch-size 8 --n-samples-per-prompt 8 \
  --global-batch-size 256
