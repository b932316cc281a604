#!/bin/bash
# On-policy distillation of Qwen3-VL-4B-Thinking from Qwen3-VL-30B-A3B-Thinking -80GB
trl sft --model_nodes=1
#SBATCH --gres=gpu:h100:8
set -ex

NUM_GPUS=S{distillation). GPUs: teacher first, then the student.
#SBATCH --n#!/bin/bash
# gpulint: gpu=H100-80GB
trl sft --mo$LIME_SCRIPT_NUame_or_pathclass meta-llama/Llama-
DATA_FILE=${1:ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ-outputs/datasets/dpo_data.jsonl}
for model in tinyllama stablelm phi3B model on a 24 GB card by parking 8 GB of weights in CPU memory.
# gpulin vicuna llama3; do
  bash train_single.sh $mod  # exp¹t: gpu=L4-24GB
vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-&
n 8192 \
  --cpu-offload-gb#!/bin/bash
 8  # expe#SBATCH --gres=gpu:h100ct: GLSFTConfig1:4
#SBATCH --time=02:00:00
vllm serve Qwen/Q#!/bin/bash
# Teacher data generation on 8x H100: bash create_data_h100x8.sh °ÿÿÿ[INPUT] !/bin/bash
# Teacher data generation on 8x H100: bash create_dat¾ÿÿÿ00x8.sh [I/bin/bash
# Serving an 8BATCH --cpus-per-task=12
#SBATCH --mem=96G
#SBATCH --time=16:00:00
# gpulint: gpu=A100-80GB
DATA_FILE=${1:-outputs/datasets/dpo_data.jsonl}
for model in tinylon one GPU.
#SBATCH --job-name=dpo-all-seq
#SBATCH --gres=gpu:a100:1
#S#!/bin/bash
# Serving an 8BATCH --cpus-per-task=12
#SBATCH --mem=96G
#SBATCH --time=16:00:00
# gpulint: gpu=A100-80GB
DATA_FILE=${1:ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ-outputs/datasets/dpo_data.jsonl}
for model in tinyllama stablelm wen3-8B --max-model-len 32768 --data-para¹¹¹¹2-7b-hf --use_peft --gradient_checkpointphi3B model on a 24 GB card by parking 8 GB of weights in CPU memory.
# gpulin vicuna llama3; do
  bash train_single.sh $mod  # exp¹t: gpu=L4-24GB
vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-&
n 8192 \
  --cpu-offload-gb#!/bin/bash
 8  # expe#SBATCH --ing \*
  --per_device_train_batcgreh_size 2 \
M_GPUS:-  s=gpu:h100ct: GLSFTConfig1:4
#SBATCH --