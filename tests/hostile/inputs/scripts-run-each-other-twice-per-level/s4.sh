bash s5.sh
bash s5.sh
