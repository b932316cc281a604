# https://github.com/modelscope/ms-swift/issues/3422
# hardware: 8x V100
# error: max设置10000 token，8卡v100报错 (CUDA out of memory)
NPROC_PER_NODE=8 swift sft \
  --model_id_or_path Qwen/Qwen2.5-7B --sft_type lora --lora_rank 16 \
  --deepspeed default-zero2 --use_flash_attn false \
  --max_length 10000 --gradient_accumulation_steps 16 --num_train_epochs 1
