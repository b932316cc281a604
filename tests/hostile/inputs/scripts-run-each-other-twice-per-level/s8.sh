bash s9.sh
bash s9.sh
