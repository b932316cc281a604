# https://github.com/simplescaling/s1/issues/13
# hardware: 8x H100 80GB (authors: 16 needed)
# error: We used 16 H100 and got OOM with 8 afaik
torchrun --nproc-per-node 8 train/sft.py \
  --model_name=Qwen/Qwen2.5-32B-Instruct \
  --per_device_train_batch_size=1 --gradient_accumulation_steps=1 \
  --block_size=32768 \
  --fsdp="full_shard auto_wrap" --bf16=True --gradient_checkpointing=True
