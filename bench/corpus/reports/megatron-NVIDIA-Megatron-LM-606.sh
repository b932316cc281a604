# https://github.com/NVIDIA/Megatron-LM/issues/606
# hardware: A100 40GB, 8 GPUs per node
# error: [QUESTION] CUDA OOM error when finetuning LLAMA2-7b with A100 40G and seq_length 64.
torchrun --nproc_per_node 8 pretrain_gpt.py \
  --tensor-model-parallel-size 1 --pipeline-model-parallel-size 1 \
  --num-layers 32 --hidden-size 4096 --ffn-hidden-size 11008 \
  --num-attention-heads 32 --num-query-groups 32 \
  --seq-length 64 --max-position-embeddings 4096 \
  --micro-batch-size 1 --global-batch-size 8 \
  --tokenizer-type Llama2Tokenizer --tokenizer-model meta-llama/Llama-2-7b-hf
