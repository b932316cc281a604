# https://github.com/hiyouga/LlamaFactory/issues/1221
# hardware: 8x V100 32GB
# error: torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.14 GiB (GPU 5; 31.75 GiB total capacity; 28.28 GiB already allocated; 1.95 GiB free; 28.28 GiB reserved in total by PyTorch)
# README ZeRO-2 example ("使用的是readme中的deepspeed zero stage2示例配置"), full fine-tuning, batch size 1.
# The config is the README's "Example config for full-parameter training with DeepSpeed ZeRO-2"
# at hiyouga/LLaMA-Factory 725087a0 (2023-10-16, README.md:336-358), written out here.
cat > ds_config_zero2.json <<'JSON'
{"train_batch_size": "auto", "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto",
 "gradient_clipping": "auto", "zero_allow_untested_optimizer": true,
 "fp16": {"enabled": "auto", "loss_scale": 0, "initial_scale_power": 16, "loss_scale_window": 1000,
          "hysteresis": 2, "min_loss_scale": 1},
 "zero_optimization": {"stage": 2, "allgather_partitions": true, "allgather_bucket_size": 5e8,
                       "reduce_scatter": true, "reduce_bucket_size": 5e8, "overlap_comm": false,
                       "contiguous_gradients": true}}
JSON
deepspeed --num_gpus 8 src/train_bash.py --deepspeed ds_config_zero2.json \
  --stage sft --do_train --model_name_or_path huggyllama/llama-7b \
  --finetuning_type full --per_device_train_batch_size 1 --fp16
