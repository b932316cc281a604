# https://github.com/vllm-project/vllm/issues/23278
# hardware: 1x H100 (gpt-oss-20b works on it, gpt-oss-120b does not)
# error: [gpu_worker.py:276] Available KV cache memory: -2.14 GiB ... EngineCore failed to start.
vllm serve openai/gpt-oss-120b
