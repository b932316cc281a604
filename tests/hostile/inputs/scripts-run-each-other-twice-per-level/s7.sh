bash s8.sh
bash s8.sh
