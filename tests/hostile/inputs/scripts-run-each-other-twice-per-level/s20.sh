bash s21.sh
bash s21.sh
