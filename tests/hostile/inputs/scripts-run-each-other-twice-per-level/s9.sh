bash s10.sh
bash s10.sh
