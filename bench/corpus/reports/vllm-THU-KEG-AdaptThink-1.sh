# https://github.com/THU-KEG/AdaptThink/issues/1
# hardware: 8 GPUs (type not named)
# error: ValueError: Total number of attention heads (28) must be divisible by tensor parallel size (8)
vllm serve deepseek-ai/DeepSeek-R1-Distill-Qwen-7B --tensor-parallel-size 8
