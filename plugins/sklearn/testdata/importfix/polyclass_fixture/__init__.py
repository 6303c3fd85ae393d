"""Modules for the sklearn bridge's import checks (test_sdk.py and
cmd/bench/sklearn_test.go put testdata/importfix on the Python path).

This package is a third-party package as the bridge sees one: its public
name imports the private _loaded (which holds the estimator Est), not the
private _unloaded nor __main__, both of which write a line to the file the
environment variable POLYCLASS_FIXTURE_MARK names when imported. Beside it,
exits_at_import and interrupts_at_import raise SystemExit and
KeyboardInterrupt when imported.
"""

from polyclass_fixture._loaded import Est

__all__ = ["Est"]
