# https://github.com/vllm-project/vllm/issues/6689
# hardware: 8x A100-80GB ("A100-80GB:8")
# outcome: ran -- "... --max-model-len 4096` works well on A100-80GB:8 with v0.5.3.post1"
vllm serve meta-llama/Meta-Llama-3.1-405B-Instruct-FP8 --tensor-parallel-size 8 --max-model-len 4096
