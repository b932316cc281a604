bash s6.sh
bash s6.sh
