# https://github.com/QwenLM/Qwen3/issues/12
# hardware: 1x V100 32GB
# error: ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.
python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen1.5-14B-Chat --dtype half --gpu-memory-utilization 0.95
