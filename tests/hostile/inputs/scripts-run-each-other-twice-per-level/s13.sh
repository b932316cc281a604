bash s14.sh
bash s14.sh
