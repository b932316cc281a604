# https://github.com/vllm-project/vllm/issues/10517
# hardware: 1x RTX 3090 24GB (gpu_memory_utilization 0.90)
# outcome: ran -- GPU blocks: 1952 ... Maximum concurrency for 20000 tokens per request: 1.56x
vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 20000 --gpu-memory-utilization 0.9
