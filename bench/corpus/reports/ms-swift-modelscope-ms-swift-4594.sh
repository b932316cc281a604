# https://github.com/modelscope/ms-swift/issues/4594
# hardware: 8x A100
# error: 8*A100执行GRPO完整流程，使用vllm爆显存，不使用vllm可以正常训练但缓慢
NPROC_PER_NODE=8 CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 \
swift rlhf --rlhf_type grpo \
  --model Qwen/Qwen3-1.7B --use_vllm true --vllm_mode colocate \
  --train_type lora --torch_dtype bfloat16 \
  --max_length 2048 --max_completion_length 1024 \
  --per_device_train_batch_size 8 --gradient_accumulation_steps 8 \
  --num_generations 8 --deepspeed zero3_offload
