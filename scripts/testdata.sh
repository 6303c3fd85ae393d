#!/usr/bin/env bash
# Regenerates testdata/data and testdata/reference from the shared data and
# reference directory (default: ../shared beside the repository).
#
# Files larger than 300 kB are stored gzip-compressed (gzip -n -9, so the
# bytes do not depend on the time they were made); every loader of the
# project reads .gz transparently. The tests read only testdata/, never the
# shared directory, so a clone runs every test.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${1:-$root/../shared}
out=$root/testdata
[ -d "$shared/data" ] && [ -d "$shared/reference" ] || {
	echo "testdata.sh: $shared has no data/ and reference/" >&2
	exit 1
}
rm -rf "$out/data" "$out/reference"
mkdir -p "$out/data" "$out/reference/folds"
copy() { # copy SRC DST-DIR: gzip when large, keep .gz files as they are
	local src=$1 dst=$2 name
	name=$(basename "$src")
	if [[ $name != *.gz && $(stat -c %s "$src") -gt 300000 ]]; then
		gzip -n -9 -c "$src" >"$dst/$name.gz"
	else
		cp "$src" "$dst/$name"
	fi
}
for f in "$shared"/data/*; do copy "$f" "$out/data"; done
for f in "$shared"/reference/*; do [ -f "$f" ] && copy "$f" "$out/reference"; done
for f in "$shared"/reference/folds/*; do copy "$f" "$out/reference/folds"; done
chmod -R u+w,a+r "$out"
echo "testdata.sh: $(du -sh "$out" | cut -f1) in $out"
