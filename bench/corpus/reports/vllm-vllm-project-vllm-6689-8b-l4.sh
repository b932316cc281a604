# https://github.com/vllm-project/vllm/issues/6689
# hardware: 1x L4 ("L4:1")
# outcome: ran -- "I'm also able to run the 8B model on L4:1 with ... --max-model-len 1024"
vllm serve meta-llama/Meta-Llama-3.1-8B-Instruct --tensor-parallel-size 1 --max-model-len 1024
