# https://myoceane.fr/index.php/ai-vllm-a100-gemma-4/
# hardware: 1x NVIDIA A100 (80GB implied by the logged numbers)
# outcome: ran -- Model loading took 13.72 GiB memory / Available KV cache memory: 36.56 GiB
vllm serve openai/gpt-oss-20b --port 10000 --max-model-len 131072 --gpu-memory-utilization 0.65 --trust-remote-code
