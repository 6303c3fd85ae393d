#!/usr/bin/python3
"""Writes dna, vowel and shuttle, the three data sets of Hsu & Lin (2002)
that experiments/data lacked, from Debian's r-cran-mlbench (2.1-3): its
R data files DNA.rda, Vowel.rda and Shuttle.rda, read without R by
Debian's python3-rdata. `make hsu-lin-data` installs both and runs it.

Each set is split into its standard training and test rows, checked
against the package's documentation (rows, features, classes) and the
class counts of each part, and written as experiments/data/NAME_train.csv.gz
and NAME_test.csv.gz (header row, class last, gzip -n -9: the bytes do not
depend on when or where they were made); for vowel, which Hsu & Lin
cross-validate on its training set alone, only vowel_train.csv.gz.

- dna: the Statlog version (180 0/1 indicators a1..a180, 3 nucleotide
  columns per position: A 100, C 010, G 001, T 000; classes ei, ie, n).
  Statlog's documentation says to use it train/test, 2000 training rows
  and 1186 test rows (Hsu & Lin's sizes). mlbench's documentation does not
  say which rows are which: the first 2000 are taken as the training set
  and the last 1186 as the test set, as Statlog's files hold them in that
  order in mlbench's Shuttle (checked below) and Satellite. That dna's rows
  are in that order too is an assumption, not checked against Statlog's
  files (not in any Debian package).
- vowel: Deterding's data as mlbench ships it. V1 is the speaker (0-14,
  66 rows each: 11 vowels x 6 utterances); speakers 0-7 are the CMU
  training set (528 rows), 8-14 the test set (462), not written: Hsu &
  Lin cross-validate on the 528 training rows. The speaker column is
  dropped. mlbench's frame keeps only
  9 of Deterding's 10 features: V2..V10 are his features 0 and 2-9 (the
  second one, 0.418 in the first row of vowel-context.data, is missing),
  so vowel here has 9 features where Hsu & Lin had 10.
- shuttle: the Statlog version, shuttle.trn's 43500 rows then
  shuttle.tst's 14500, in their order (the first row of each part is
  checked against the first line of the Statlog file).

Usage: scripts/hsu_lin_mlbench.py [MLBENCH_DATA_DIR [OUT_DIR]]
"""

import os
import subprocess
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MLBENCH = "/usr/lib/R/site-library/mlbench/data"
OUT = os.path.join(ROOT, "experiments", "data")

# The shapes of mlbench's documentation (?DNA, ?Vowel, ?Shuttle) and the
# class counts of each part.
SPECS = {
    "dna": {
        "frame": "DNA",
        "rows": 3186,
        "train_rows": 2000,
        "train": {"ei": 464, "ie": 485, "n": 1051},
        "test": {"ei": 303, "ie": 280, "n": 603},
    },
    "vowel": {
        "frame": "Vowel",
        "rows": 990,
        "train_rows": 528,
        "write_test": False,
        "train": {v: 48 for v in "hid hId hEd hAd hYd had hOd hod hUd hud hed".split()},
        "test": {v: 42 for v in "hid hId hEd hAd hYd had hOd hod hUd hud hed".split()},
    },
    "shuttle": {
        "frame": "Shuttle",
        "rows": 58000,
        "train_rows": 43500,
        "train": {"Rad.Flow": 34108, "Fpv.Close": 37, "Fpv.Open": 132, "High": 6748,
                  "Bypass": 2458, "Bpv.Close": 6, "Bpv.Open": 11},
        "test": {"Rad.Flow": 11478, "Fpv.Close": 13, "Fpv.Open": 39, "High": 2155,
                 "Bypass": 809, "Bpv.Close": 4, "Bpv.Open": 2},
    },
}

# The first line of Statlog's shuttle.trn and of shuttle.tst (class 2 is
# Fpv.Close, 4 High).
SHUTTLE_FIRST = {
    "train": ([50, 21, 77, 0, 28, 0, 27, 48, 22], "Fpv.Close"),
    "test": ([55, 0, 81, 0, -6, 11, 25, 88, 64], "High"),
}


class CheckError(Exception):
    """A data set that is missing or does not match the package's
    documentation."""


def load(directory, frame):
    """Returns the data frame of mlbench's FRAME.rda."""
    import rdata  # Debian's python3-rdata

    path = os.path.join(directory, frame + ".rda")
    if not os.path.isfile(path):
        raise CheckError(f"no {path}: install Debian's r-cran-mlbench (make hsu-lin-data)")
    with warnings.catch_warnings():
        # The .rda files declare no string encoding; their strings are ASCII.
        warnings.simplefilter("ignore")
        parsed = rdata.parser.parse_file(path)
        return rdata.conversion.convert(parsed)[frame]


def check(cond, name, msg):
    """Raises CheckError naming the data set when cond is false."""
    if not cond:
        raise CheckError(f"{name}: {msg}")


def integer(x):
    """Formats a whole number stored as a double without its ".0"."""
    if x != int(x):
        raise CheckError(f"{x!r} is not a whole number")
    return str(int(x))


def dna(df):
    """Returns dna's header and rows: a1..a180 (0/1) and the class."""
    check(df.shape == (3186, 181), "dna", f"shape {df.shape}, want (3186, 181)")
    feats = [df.iloc[:, j].astype(str).tolist() for j in range(180)]
    for j, col in enumerate(feats):
        bad = set(col) - {"0", "1"}
        check(not bad, "dna", f"column {j + 1} has values {sorted(bad)}")
    for i in range(3186):
        for p in range(60):
            ones = sum(feats[3 * p + k][i] == "1" for k in range(3))
            check(ones <= 1, "dna", f"row {i + 1}: position {p + 1} has {ones} indicators set")
    header = [f"a{j}" for j in range(1, 181)] + ["class"]
    classes = df["Class"].astype(str).tolist()
    rows = [[feats[j][i] for j in range(180)] + [classes[i]] for i in range(3186)]
    return header, rows


def vowel(df):
    """Returns vowel's header and rows: v2..v10 and the class (V1, the
    speaker, is checked and dropped)."""
    check(df.shape == (990, 11), "vowel", f"shape {df.shape}, want (990, 11)")
    check(list(df.columns) == [f"V{j}" for j in range(1, 11)] + ["Class"], "vowel",
          f"columns {list(df.columns)}")
    speakers = df["V1"].astype(str).tolist()
    want = [str(i // 66) for i in range(990)]
    check(speakers == want, "vowel", "V1 is not speakers 0-14 in order, 66 rows each")
    header = [f"v{j}" for j in range(2, 11)] + ["class"]
    cols = [df[f"V{j}"].tolist() for j in range(2, 11)]
    classes = df["Class"].astype(str).tolist()
    rows = [[repr(float(c[i])) for c in cols] + [classes[i]] for i in range(990)]
    return header, rows


def shuttle(df):
    """Returns shuttle's header and rows: v1..v9 (v1 is time) and the class."""
    check(df.shape == (58000, 10), "shuttle", f"shape {df.shape}, want (58000, 10)")
    header = [f"v{j}" for j in range(1, 10)] + ["class"]
    cols = [df[f"V{j}"].tolist() for j in range(1, 10)]
    classes = df["Class"].astype(str).tolist()
    rows = [[integer(c[i]) for c in cols] + [classes[i]] for i in range(58000)]
    for part, first in (("train", 0), ("test", 43500)):
        feats, cls = SHUTTLE_FIRST[part]
        got = rows[first]
        check(got == [str(v) for v in feats] + [cls], "shuttle",
              f"row {first + 1} is {got}, want the first line of shuttle.{part[:3]}")
    return header, rows


def counts(rows):
    """Returns the number of rows of each class."""
    out = {}
    for r in rows:
        out[r[-1]] = out.get(r[-1], 0) + 1
    return out


def write(path, header, rows):
    """Writes header and rows as CSV through gzip -n -9."""
    text = "".join(",".join(r) + "\n" for r in [header] + rows).encode("ascii")
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        subprocess.run(["gzip", "-n", "-9", "-c"], input=text, stdout=f, check=True)
    os.replace(tmp, path)


def main(argv):
    """Checks and writes the three data sets."""
    directory = argv[1] if len(argv) > 1 else MLBENCH
    out = argv[2] if len(argv) > 2 else OUT
    makers = {"dna": dna, "vowel": vowel, "shuttle": shuttle}
    for name, spec in SPECS.items():
        header, rows = makers[name](load(directory, spec["frame"]))
        check(len(rows) == spec["rows"], name, f"{len(rows)} rows, want {spec['rows']}")
        n = spec["train_rows"]
        for part, rs in (("train", rows[:n]), ("test", rows[n:])):
            got = counts(rs)
            check(got == spec[part], name, f"{part} class counts {got}, want {spec[part]}")
            if part == "test" and not spec.get("write_test", True):
                continue
            path = os.path.join(out, f"{name}_{part}.csv.gz")
            write(path, header, rs)
            print(f"{path}: {len(rs)} rows x {len(header) - 1} features, {len(got)} classes")


if __name__ == "__main__":
    try:
        main(sys.argv)
    except CheckError as e:
        sys.exit(f"hsu_lin_mlbench.py: {e}")
