# https://github.com/vllm-project/vllm/issues/10517
# hardware: 1x RTX 3090 24GB (gpu_memory_utilization 0.90)
# error: The model's max seq len (29000) is larger than the maximum number of tokens that can be stored in KV cache (23648).
vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 29000 --gpu-memory-utilization 0.9
