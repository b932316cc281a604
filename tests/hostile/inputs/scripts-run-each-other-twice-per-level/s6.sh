bash s7.sh
bash s7.sh
