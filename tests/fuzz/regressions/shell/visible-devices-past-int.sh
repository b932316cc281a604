#!ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ/bin/bash
# gpulint: gpu=H100-80GB
CUDA_VISIBLE_DEVICES=0,666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666661 vllm serv
EOF
n/Qwen3-32B --port 8000 \
  --tensor-parallel-size 2 --max-model-len 32768 &
CUDA_VISIBLE_DEVICES=2,3 vllm serve Qwen/Qwen3-8B --port 8001 \
  --tensor-parallel-size 2 --max-model-len 32768 &
wait
