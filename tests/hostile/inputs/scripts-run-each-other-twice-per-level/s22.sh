bash s23.sh
bash s23.sh
