#!/bin/bash
# The cells of the whole experiments/hsu_lin.hcl run, kept in the
# repository as parts (docs/hsu-lin/cells-NN.tar.xz) so that a run that
# takes longer than one machine is lent can go on from where it stopped,
# on any machine, with bench built at the commit the parts name
# (docs/hsu-lin/README.md).
#
#   scripts/hsu_lin_parts.sh restore DIR   unpack every part into DIR
#                                          (a new or empty results directory)
#   scripts/hsu_lin_parts.sh save DIR      pack DIR's cells that no part
#                                          holds yet into the next part
#
# A part holds the run's manifest.json and the cell files it adds; parts
# are never rewritten. bench run -o DIR then keeps every cell of the parts
# (they are its own: same experiment file, same build) and runs the rest.
set -euo pipefail
parts=docs/hsu-lin
usage() { echo "usage: $0 restore|save DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
cmd=$1 dir=$2
cd "$(dirname "$0")/.."
case $cmd in
restore)
	if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
		echo "$0: $dir is not empty: restore into a new directory" >&2
		exit 1
	fi
	mkdir -p "$dir"
	n=0
	for p in "$parts"/cells-*.tar.xz; do
		[ -e "$p" ] || continue
		tar -xJf "$p" -C "$dir"
		n=$((n + 1))
	done
	echo "$dir: $(ls "$dir/cells" 2>/dev/null | wc -l) cells from $n parts"
	;;
save)
	[ -f "$dir/manifest.json" ] && [ -d "$dir/cells" ] || { echo "$0: $dir holds no bench run (manifest.json, cells/)" >&2; exit 1; }
	have=$(mktemp) new=$(mktemp)
	trap 'rm -f "$have" "$new"' EXIT
	for p in "$parts"/cells-*.tar.xz; do
		[ -e "$p" ] && tar -tJf "$p" | grep '^cells/' >>"$have" || true
	done
	sort -o "$have" "$have"
	(cd "$dir" && ls cells | grep -E '^[0-9]+-[0-9a-f]+\.json$' | sed 's|^|cells/|' | sort) | comm -23 - "$have" >"$new"
	if [ ! -s "$new" ]; then
		echo "$dir: no cells beyond the parts'"
		exit 0
	fi
	last=$(ls "$parts"/cells-*.tar.xz 2>/dev/null | sed 's/.*cells-\([0-9]*\)\.tar\.xz/\1/' | sort -n | tail -1 || true)
	next=$(printf '%02d' $((10#${last:-0} + 1)))
	out="$parts/cells-$next.tar.xz"
	tar -C "$dir" -cf - manifest.json -T "$new" | xz -6 -T1 >"$out"
	echo "$out: $(wc -l <"$new") cells, $(wc -c <"$out") bytes"
	;;
*) usage ;;
esac
