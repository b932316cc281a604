# https://github.com/huggingface/accelerate/issues/1864
# hardware: 80x A100-80GB (10 nodes x 8)
# error: RuntimeError: CUDA out of memory. Tried to allocate 12.00 GiB (GPU 2; 79.15 GiB total capacity; 56.66 GiB already allocated; 9.54 GiB free; 68.85 GiB reserved in total by PyTorch)
accelerate launch --use_fsdp --fsdp_sharding_strategy FULL_SHARD \
  --fsdp_auto_wrap_policy TRANSFORMER_BASED_WRAP --fsdp_offload_params true \
  --fsdp_backward_prefetch_policy NO_PREFETCH \
  --num_machines 10 --num_processes 80 \
  train.py --model_name_or_path bigcode/starcoder \
  --per_device_train_batch_size 1 --gradient_checkpointing --max_seq_length 8192 --bf16
