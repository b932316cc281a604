bash s22.sh
bash s22.sh
