# https://github.com/vllm-project/vllm/issues/8731
# hardware: 4x NVIDIA A100-SXM4-40GB
# error: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 72.00 MiB. GPU 0 has a total capacity of 39.56 GiB of which 60.81 MiB is free.
CUDA_VISIBLE_DEVICES=0,1,2,3 python -m vllm.entrypoints.openai.api_server \
  --model Qwen/Qwen2.5-32B-Instruct -tp 4 --max-model-len 1000 \
  --speculative_model Qwen/Qwen2.5-7B-Instruct --num_speculative_tokens 5 \
  --speculative-max-model-len 1000 --use-v2-block-manager \
  --gpu_memory_utilization 0.9
