# https://github.com/hiyouga/LlamaFactory/issues/1369
# hardware: 2x V100 16GB
# error: 两张v100(16G*2)微调qwen-7b，显存不足报错
deepspeed --include localhost:0,1 src/train_bash.py --deepspeed ds_zero2.json \
  --stage sft --do_train \
  --model_name_or_path Qwen/Qwen-7B-Chat \
  --finetuning_type lora --fp16
