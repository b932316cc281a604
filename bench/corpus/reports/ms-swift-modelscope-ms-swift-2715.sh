# https://github.com/modelscope/ms-swift/issues/2715
# hardware: 2 servers x 2 RTX 4090 24GB
# error: 单服务器双4090微调qwen2.5-14B-Instruct成功，多机多卡2台服务器4张4090微调启动失败，CUDA out of memory
CUDA_VISIBLE_DEVICES=0,1 NNODES=2 NODE_RANK=0 NPROC_PER_NODE=2 \
swift sft \
  --model Qwen/Qwen2.5-14B-Instruct --train_type lora --torch_dtype bfloat16 \
  --max_length 1024 --lora_rank 8 --lora_alpha 32 \
  --gradient_accumulation_steps 16 --attn_impl flash_attn
