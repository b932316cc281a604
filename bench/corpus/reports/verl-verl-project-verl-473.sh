# https://github.com/verl-project/verl/issues/473
# hardware: 2 GPUs on one node (type not named)
# error: AssertionError: only support equal chunk. Got size of DataProto 2 and chunk 4.
python3 -m verl.trainer.main_generation \
  trainer.nnodes=1 trainer.n_gpus_per_node=2 \
  data.n_samples=1 data.batch_size=1 \
  model.path=$MODEL \
  rollout.prompt_length=4096 rollout.response_length=1024 \
  rollout.max_num_batched_tokens=8192 \
  rollout.tensor_model_parallel_size=2 \
  rollout.gpu_memory_utilization=0.8
