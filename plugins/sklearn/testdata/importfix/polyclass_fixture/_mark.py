"""Leaves a mark that a module was imported: a line in the file that the
environment variable POLYCLASS_FIXTURE_MARK names, when set."""

import os


def mark(name):
    path = os.environ.get("POLYCLASS_FIXTURE_MARK")
    if path:
        with open(path, "a") as f:
            f.write(name + " imported\n")
