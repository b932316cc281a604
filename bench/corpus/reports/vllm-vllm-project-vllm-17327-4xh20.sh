# https://github.com/vllm-project/vllm/issues/17327
# hardware: 4x H20 96GB (vLLM v0.8.5)
# error: 我使用默认的 `vllm serve ./Qwen3-235B-A22B --tensor-parallel-size 4` 来运行，会出现OOM的情况
vllm serve Qwen/Qwen3-235B-A22B --tensor-parallel-size 4
