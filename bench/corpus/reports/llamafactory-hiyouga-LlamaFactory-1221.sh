# https://github.com/hiyouga/LlamaFactory/issues/1221
# hardware: 8x V100 32GB
# error: torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.14 GiB (GPU 5; 31.75 GiB total capacity; 28.28 GiB already allocated; 1.95 GiB free; 28.28 GiB reserved in total by PyTorch)
# README ZeRO-2 example, full fine-tuning, batch size 1
deepspeed --num_gpus 8 src/train_bash.py --deepspeed ds_config_zero2.json \
  --stage sft --do_train --model_name_or_path huggyllama/llama-7b \
  --finetuning_type full --per_device_train_batch_size 1 --fp16
