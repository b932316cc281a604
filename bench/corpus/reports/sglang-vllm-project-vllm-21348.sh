# https://github.com/vllm-project/vllm/issues/21348
# hardware: 4x H100 (TP 4)
# outcome: ran -- KV Cache is allocated. #tokens: 367404, K size: 8.23 GB, V size: 8.23 GB
python3 -m sglang.launch_server --model Qwen/Qwen3-235B-A22B-FP8 --tp 4 --trust-remote-code --mem-fraction-static 0.93
