# https://github.com/Graph-COM/SubgraphRAG/issues/19
# hardware: 2x RTX 3090 24GB (engine at TP 1)
# error: ValueError: The model's max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache (39024).
# the repo builds vllm.LLM(model=...) with defaults; the equivalent server launch:
vllm serve meta-llama/Llama-3.1-8B-Instruct
