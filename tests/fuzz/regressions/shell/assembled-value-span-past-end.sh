S=:wr
.py --model o$S