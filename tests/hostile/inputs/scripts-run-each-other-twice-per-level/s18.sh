bash s19.sh
bash s19.sh
