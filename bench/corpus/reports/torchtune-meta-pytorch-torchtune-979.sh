# https://github.com/meta-pytorch/torchtune/issues/979
# hardware: 1x A100 80GB
# outcome: ran -- "I am able to fit pretty comfortably into a single A100 80GB."
tune run lora_finetune_single_device --config llama3/8B_lora_single_device \
  dataset=torchtune.datasets.slimorca_dataset dataset.max_seq_len=8192
