# https://github.com/sgl-project/sglang/issues/1362
# hardware: 8x H100 SXM
# outcome: ran -- "It works well for me on 8xH100 SXM."
python -m sglang.launch_server --model-path meta-llama/Meta-Llama-3.1-405B-FP8 --tp 8 --disable-radix --mem-frac 0.87
