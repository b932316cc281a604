# https://github.com/modelscope/ms-swift/issues/118
# hardware: 4x RTX 4090 24GB
# error: 问题出在loading checkpoint shards 环节，加载到单卡的显存放不下就失败了。
# lora_ddp_ds/sft.sh; the reporter saw the same OOM with baichuan2-13b-chat and qwen-14b-chat
CUDA_VISIBLE_DEVICES=0,1,2,3 torchrun --nproc_per_node=4 src/llm_sft.py \
  --model_type qwen-14b-chat --sft_type lora --dtype bf16 \
  --max_length 4096 --lora_rank 8 --lora_target_modules ALL \
  --gradient_checkpointing true --batch_size 1 --gradient_accumulation_steps 4
