# https://github.com/vllm-project/vllm/issues/21348
# hardware: 4x H100 (TP 4)
# outcome: ran -- Available KV cache memory: 8.11 GiB / GPU KV cache size: 178,880 tokens
CUDA_VISIBLE_DEVICES=0,1,2,3 vllm serve Qwen/Qwen3-235B-A22B-FP8 --tensor-parallel-size 4
