# https://github.com/vllm-project/vllm/issues/27508
# hardware: 1x NVIDIA H100 80GB HBM3 (81559MiB)
# error: Available KV cache memory: 1.71 GiB ... EngineCore failed to start.
vllm serve openai/gpt-oss-120b --gpu-memory-utilization 0.95 --max-num-batched-tokens 1024
