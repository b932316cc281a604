bash s1.sh
bash s1.sh
