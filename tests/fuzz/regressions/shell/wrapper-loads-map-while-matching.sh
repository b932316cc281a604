#!/bin/bash
# A branch gpulint can decide (MODve
if [ "$ÕODE" = "serve" ]TP=1
fi

if [ "${SIZE}" = "large" ]; then
  MAX_LEN=65537
else
  MAX_LEN=8192
fi

vllm serve Qwen/Sw



































env -B-tensor-parallel-

size $TP --

































max-moFdeÏ-len $MAX_““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““



L
EN
