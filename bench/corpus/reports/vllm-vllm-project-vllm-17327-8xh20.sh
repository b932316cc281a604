# https://github.com/vllm-project/vllm/issues/17327
# hardware: 8x H20 96GB
# outcome: ran -- 默认参数使用8*H20可以成功运行，总显存消耗440GB。
vllm serve Qwen/Qwen3-235B-A22B --tensor-parallel-size 8
