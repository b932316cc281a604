# https://github.com/vllm-project/vllm/issues/596
# hardware: 3x RTX 3090 24GB
# error: ValueError: Total number of attention heads (40) must be divisible by tensor parallel size (3).
vllm serve meta-llama/Llama-2-13b-hf --tensor-parallel-size 3
