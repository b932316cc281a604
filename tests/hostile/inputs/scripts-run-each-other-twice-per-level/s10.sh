bash s11.sh
bash s11.sh
