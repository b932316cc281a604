bash s17.sh
bash s17.sh
