#!/usr/bin/env bash
# Copies the data sets of experiments/hsu_lin.hcl from the shared data
# directory (default ../shared/data) into experiments/data: glass and
# segment whole (10-fold cross-validation), satimage and letter split as
# Hsu & Lin split them: satimage's rows 1-4435 (the Statlog sat.trn) train
# and 4436-6435 (sat.tst) test; letter's first 15000 rows train and the
# last 5000 test. Files over 300 kB are gzipped (gzip -n -9: the bytes do
# not depend on when they were made). dna, vowel and shuttle, the other
# three, come from Debian's R mlbench: scripts/hsu_lin_mlbench.py (make
# hsu-lin-data).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${1:-$root/../shared/data}
out=$root/experiments/data
[ -f "$shared/letter.csv" ] || { echo "hsu_lin_data.sh: no letter.csv in $shared" >&2; exit 1; }
put() { # put NAME: stdin to experiments/data/NAME, gzipped when large
	local tmp
	tmp=$(mktemp)
	cat >"$tmp"
	if [ "$(stat -c %s "$tmp")" -gt 300000 ]; then
		gzip -n -9 -c "$tmp" >"$out/$1.gz"
	else
		cat "$tmp" >"$out/$1"
	fi
	rm -f "$tmp"
}
put glass.csv <"$shared/glass.csv"
put segment.csv <"$shared/segment.csv"
split() { # split NAME TRAIN-ROWS: the header and the first rows, then the header and the rest
	head -n $(($2 + 1)) "$shared/$1.csv" | put "$1_train.csv"
	{ head -n 1 "$shared/$1.csv"; tail -n +$(($2 + 2)) "$shared/$1.csv"; } | put "$1_test.csv"
}
split satimage 4435
split letter 15000
ls -l "$out"/glass.csv* "$out"/segment.csv* "$out"/satimage_* "$out"/letter_*
