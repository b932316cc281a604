# https://github.com/meta-pytorch/torchtune/issues/2078
# hardware: 2x H100 on one node
# error: When I try to launch my training on two H100 on the same node I have a CUDA OOM error.
# samples up to ~19900 tokens; activation checkpointing off (maintainer's diagnosis)
tune run --nnodes 1 --nproc_per_node 2 lora_finetune_distributed --config qwen2_5/7B_lora \
  tokenizer.max_seq_len=20000 batch_size=1 enable_activation_checkpointing=False
