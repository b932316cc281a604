# https://github.com/hiyouga/LlamaFactory/issues/5380
# hardware: 4x NVIDIA GeForce RTX 4090 24GB
# error: 4卡4090 训练 qwen1.5 14b时候 4个显卡都在加载模型 导致显存溢出。
llamafactory-cli train \
  --stage pt --do_train True \
  --model_name_or_path Qwen/Qwen1.5-14B-Chat \
  --finetuning_type lora --template qwen \
  --cutoff_len 512 --packing True \
  --per_device_train_batch_size 1 --gradient_accumulation_steps 8 \
  --fp16 True
