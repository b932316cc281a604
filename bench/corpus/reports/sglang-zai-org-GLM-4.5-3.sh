# https://github.com/zai-org/GLM-4.5/issues/3
# hardware: 4x H100
# error: Using 4*H100 and FP8 start script in readme will result out of memory
python3 -m sglang.launch_server --model-path zai-org/GLM-4.5-Air-FP8 --tp-size 4 \
  --speculative-algorithm EAGLE --speculative-num-steps 3 \
  --speculative-eagle-topk 1 --speculative-num-draft-tokens 4 \
  --mem-fraction-static 0.7 --disable-shared-experts-fusion
