bash s2.sh
bash s2.sh
