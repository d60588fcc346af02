#!/usr/bin/env bash
# Installs (from Debian packages) and starts the lookup databases that join/'s integration
# tests and benchmarks use, creates user and database palink/palink on each, and prints the
# connection strings as shell exports:
#
#   eval "$(.ci/databases.sh)"
#
# stdout carries only the export lines; everything else goes to stderr. Runs as root on
# Debian (CI and the developers' machines), without systemd. Safe to run again: it installs,
# creates and starts only what is missing.
set -euo pipefail

log() { echo "databases.sh: $*" >&2; }

if [ "$(id -u)" != 0 ]; then
	log "must run as root (it installs packages and starts servers)"
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive

missing=()
for pkg in postgresql mariadb-server; do
	dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
	log "installing ${missing[*]}"
	apt-get update -qq >&2
	# policy-rc.d 101 keeps the maintainer scripts from starting servers themselves
	# (there is no init system to own them); this script starts them below.
	printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
	chmod +x /usr/sbin/policy-rc.d
	trap 'rm -f /usr/sbin/policy-rc.d' EXIT
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
	rm -f /usr/sbin/policy-rc.d
	trap - EXIT
fi

# --- PostgreSQL -----------------------------------------------------------------------------
pgver=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if ! pg_lsclusters -h | awk -v v="$pgver" '$1 == v && $2 == "main"' | grep -q .; then
	log "creating PostgreSQL $pgver cluster main"
	pg_createcluster "$pgver" main >&2
fi
if ! pg_lsclusters -h | awk -v v="$pgver" '$1 == v && $2 == "main" && $4 == "online"' | grep -q .; then
	log "starting PostgreSQL $pgver"
	pg_ctlcluster "$pgver" main start >&2
fi
pgport=$(pg_lsclusters -h | awk -v v="$pgver" '$1 == v && $2 == "main" {print $3}')
for _ in $(seq 1 60); do
	runuser -u postgres -- pg_isready -q -p "$pgport" && break
	sleep 0.5
done
psql_admin() { runuser -u postgres -- psql -p "$pgport" -v ON_ERROR_STOP=1 -qtA "$@"; }
psql_admin -c "DO \$\$ BEGIN
	IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'palink') THEN
		CREATE ROLE palink LOGIN PASSWORD 'palink';
	END IF;
END \$\$;" >&2
if [ -z "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = 'palink'")" ]; then
	psql_admin -c "CREATE DATABASE palink OWNER palink" >&2
fi

# --- MariaDB --------------------------------------------------------------------------------
if ! mariadb-admin ping --silent >/dev/null 2>&1; then
	log "starting MariaDB"
	install -d -o mysql -g mysql /run/mysqld
	if [ ! -d /var/lib/mysql/mysql ]; then
		mariadb-install-db --user=mysql --datadir=/var/lib/mysql >&2
	fi
	# mysqld_safe stays in the foreground: detach it from this script's stdout so that
	# `eval "$(databases.sh)"` does not wait for it.
	nohup mysqld_safe --user=mysql >/dev/null 2>&1 </dev/null &
	for _ in $(seq 1 120); do
		mariadb-admin ping --silent >/dev/null 2>&1 && break
		sleep 0.5
	done
	mariadb-admin ping --silent >/dev/null 2>&1 || { log "MariaDB did not start"; exit 1; }
fi
mariadb -uroot >&2 <<'SQL'
CREATE DATABASE IF NOT EXISTS palink;
CREATE USER IF NOT EXISTS 'palink'@'localhost' IDENTIFIED BY 'palink';
CREATE USER IF NOT EXISTS 'palink'@'127.0.0.1' IDENTIFIED BY 'palink';
GRANT ALL PRIVILEGES ON palink.* TO 'palink'@'localhost';
GRANT ALL PRIVILEGES ON palink.* TO 'palink'@'127.0.0.1';
FLUSH PRIVILEGES;
SQL
myport=$(mariadb -uroot -NBe 'SELECT @@port')

log "PostgreSQL $pgver on 127.0.0.1:$pgport, MariaDB on 127.0.0.1:$myport, user/database palink"
# PostgreSQL: a libpq URL (pgx). MySQL/MariaDB: a go-sql-driver/mysql DSN.
echo "export PALINK_TEST_POSTGRES_DSN='postgres://palink:palink@127.0.0.1:${pgport}/palink?sslmode=disable'"
echo "export PALINK_TEST_MYSQL_DSN='palink:palink@tcp(127.0.0.1:${myport})/palink'"
