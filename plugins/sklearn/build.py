"""Builds bench-plugin-sklearn: the bridge and its SDK as one executable
zip archive (see python3 -m zipapp) run by the interpreter that builds it,
whose packages (scikit-learn, grpcio) it then imports: make build uses
Debian's /usr/bin/python3; a venv's python builds a zip bound to the venv.
Not #!/usr/bin/env python3, which runs whichever python3 comes first on
the PATH of whoever starts bench (a pyenv one without numpy, say).

    /usr/bin/python3 plugins/sklearn/build.py bin/bench-plugin-sklearn
"""

import os
import sys
import zipapp

HERE = os.path.dirname(os.path.abspath(__file__))


def include(path):
    """The SDK package and the bridge module; no tests, protos or caches."""
    parts = path.parts
    if "__pycache__" in parts:
        return False
    if parts[0] == "polyclass_plugin":
        return path.suffix in (".py", "")
    return parts == ("sklearn_bridge.py",)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: build.py OUTPUT")
    zipapp.create_archive(
        HERE, sys.argv[1], interpreter=sys.executable or "/usr/bin/python3", main="sklearn_bridge:main", filter=include
    )


if __name__ == "__main__":
    main()
