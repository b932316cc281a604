bash s3.sh
bash s3.sh
