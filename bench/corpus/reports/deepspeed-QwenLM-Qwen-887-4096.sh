# https://github.com/QwenLM/Qwen/issues/887
# hardware: 8 machines x 8 GPUs of 80GB
# error: 4096长度，8台机器都会OOM。
# Qwen finetune.py with the thread's ds_config (ZeRO-2, bf16); gradient checkpointing evidently off
cat > ds_config_zero2.json <<'EOF'
{"bf16": {"enabled": true}, "zero_optimization": {"stage": 2, "overlap_comm": true, "contiguous_gradients": true},
 "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto"}
EOF
torchrun --nnodes 8 --nproc_per_node 8 finetune.py \
  --model_name_or_path Qwen/Qwen-14B --bf16 True \
  --per_device_train_batch_size 1 --model_max_length 4096 \
  --deepspeed ds_config_zero2.json
