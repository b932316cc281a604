bash s4.sh
bash s4.sh
