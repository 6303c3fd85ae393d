"""Builds bench-plugin-sklearn: the bridge and its SDK as one executable
zip archive (the layout of python3 -m zipapp: a #! line, then a zip with
__main__.py) run by the interpreter that builds it, whose packages
(scikit-learn, grpcio) it then imports: make build uses Debian's
/usr/bin/python3; a venv's python builds a zip bound to the venv. Not
#!/usr/bin/env python3, which runs whichever python3 comes first on the
PATH of whoever starts bench (a pyenv one without numpy, say).

    /usr/bin/python3 plugins/sklearn/build.py bin/bench-plugin-sklearn

The archive is reproducible: the same sources give the same bytes
whenever and wherever they are built. zipapp stamps each entry with the
file's modification time (a checkout's time) and __main__.py with the
build's, takes the files in directory order and their permission bits
from the disk; here the entries are sorted by name, dated 1980-01-01 (the
zip format's earliest date) and given mode 0644, so that the plugin's
SHA-256, which identifies the cells it computes, changes only with its
sources.
"""

import os
import pathlib
import sys
import zipfile

HERE = pathlib.Path(os.path.dirname(os.path.abspath(__file__)))
INTERPRETER = sys.executable or "/usr/bin/python3"
MAIN = "# -*- coding: utf-8 -*-\nimport sklearn_bridge\nsklearn_bridge.main()\n"
EPOCH = (1980, 1, 1, 0, 0, 0)


def include(path):
    """The SDK package and the bridge module; no tests, protos or caches."""
    parts = path.parts
    if "__pycache__" in parts:
        return False
    if parts[0] == "polyclass_plugin":
        return path.suffix == ".py"
    return parts == ("sklearn_bridge.py",)


def entry(name):
    """A zip entry of fixed date, permissions and system."""
    info = zipfile.ZipInfo(name, date_time=EPOCH)
    info.create_system = 3  # Unix, whatever builds it
    info.external_attr = (0o100644 & 0xFFFF) << 16
    info.compress_type = zipfile.ZIP_STORED
    return info


def files(root):
    """The archive's files, relative to root, sorted by name."""
    out = []
    for path in root.rglob("*"):
        rel = path.relative_to(root)
        if path.is_file() and include(rel):
            out.append(rel)
    return sorted(out, key=lambda p: p.as_posix())


def build(root, target):
    """Writes the archive of the sources in root to target."""
    tmp = target + ".tmp"
    with open(tmp, "wb") as f:
        f.write(b"#!" + INTERPRETER.encode() + b"\n")
        with zipfile.ZipFile(f, "w") as z:
            z.writestr(entry("__main__.py"), MAIN.encode("utf-8"))
            for rel in files(root):
                z.writestr(entry(rel.as_posix()), (root / rel).read_bytes())
    os.chmod(tmp, 0o755)
    os.replace(tmp, target)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: build.py OUTPUT [SOURCE_DIR]")
    root = pathlib.Path(sys.argv[2]) if len(sys.argv) == 3 else HERE
    build(root, sys.argv[1])


if __name__ == "__main__":
    main()
