# https://github.com/modelscope/ms-swift/issues/2715
# hardware: 1 server x 2 RTX 4090 24GB (no NPROC_PER_NODE: model split over both GPUs)
# outcome: ran -- 单服务器双4090微调qwen2.5-14B-Instruct成功
CUDA_VISIBLE_DEVICES=0,1 \
swift sft \
  --model Qwen/Qwen2.5-14B-Instruct --torch_dtype bfloat16 \
  --max_length 1024 --lora_rank 32 --lora_alpha 8 \
  --gradient_accumulation_steps 16 --attn_impl flash_attn
