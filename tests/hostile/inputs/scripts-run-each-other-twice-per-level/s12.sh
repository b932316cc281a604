bash s13.sh
bash s13.sh
