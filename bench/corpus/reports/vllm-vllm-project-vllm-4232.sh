# https://github.com/vllm-project/vllm/issues/4232
# hardware: 6x T4 16GB
# error: Total number of attention heads (40) must be divisible by tensor parallel size (6).
vllm serve Qwen/Qwen1.5-32B-Chat --tensor-parallel-size 6
