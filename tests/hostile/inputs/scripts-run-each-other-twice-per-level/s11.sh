bash s12.sh
bash s12.sh
