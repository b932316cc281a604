# https://github.com/deepspeedai/DeepSpeed/issues/7482
# hardware: 4x A100 40GB
# error: [BUG] GPU OOM when finetune Qwen2.5-14B with ZeRO2+offload on 4xA100 40G cards
cat > zo_config.json <<'EOF'
{"train_batch_size": 8, "gradient_accumulation_steps": 1, "bf16": {"enabled": true},
 "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu", "pin_memory": false}}}
EOF
deepspeed --num_gpus=4 finetune_llama.py --model_name Qwen/Qwen2.5-14B --output_dir output \
  --lr 2e-5 --batch_size 8 --deepspeed_config zo_config.json --num_train_epochs 1
