# https://github.com/OpenRLHF/OpenRLHF/issues/346
# hardware: 7 GPUs ("our lab has 7GPUs running", type not named)
# error: AssertionError: Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * world_size 256 != 2 * 18 * 7
deepspeed --num_gpus 7 --module openrlhf.cli.train_sft \
  --pretrain meta-llama/Meta-Llama-3-8B \
  --train_batch_size 256 --micro_train_batch_size 2 \
  --max_len 2048 --zero_stage 2 --bf16
