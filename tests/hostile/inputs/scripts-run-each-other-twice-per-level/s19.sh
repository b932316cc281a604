bash s20.sh
bash s20.sh
