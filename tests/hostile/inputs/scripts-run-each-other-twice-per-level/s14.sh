bash s15.sh
bash s15.sh
