# https://github.com/vllm-project/vllm/issues/6746
# hardware: 8x H100 80GB (TP 8)
# error: ValueError: The model's max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache (79392).
vllm serve meta-llama/Meta-Llama-3.1-405B-Instruct-FP8 --tensor-parallel-size 8
