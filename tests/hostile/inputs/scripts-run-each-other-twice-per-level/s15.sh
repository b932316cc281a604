bash s16.sh
bash s16.sh
