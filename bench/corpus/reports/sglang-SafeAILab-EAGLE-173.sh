# https://github.com/SafeAILab/EAGLE/pull/173
# hardware: 1x H100
# outcome: ran -- "Eagle decoding speed (SGLang): 297 token/s" (results obtained on a single H100)
python3 -m sglang.launch_server --model meta-llama/Llama-2-7b-chat-hf \
  --speculative-algo EAGLE --speculative-draft lmzheng/sglang-EAGLE-llama2-chat-7B \
  --speculative-num-steps 5 --speculative-eagle-topk 8 --speculative-num-draft-tokens 64 \
  --mem-fraction 0.7
