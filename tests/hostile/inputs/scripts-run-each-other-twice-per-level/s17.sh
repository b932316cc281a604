bash s18.sh
bash s18.sh
