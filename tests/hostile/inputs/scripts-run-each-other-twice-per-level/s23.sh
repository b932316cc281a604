bash s24.sh
bash s24.sh
