"""Unit tests of the Python plugin SDK (run by plugins/sklearn/sdk_test.go,
or by hand: /usr/bin/python3 -m unittest discover -s plugins/sklearn)."""

import os
import struct
import sys
import tempfile
import unittest

import numpy as np
import scipy.sparse

from polyclass_plugin import dataset, learner, service
from polyclass_plugin._proto import plugin_pb2 as pb


def header(layout, rows, cols, nnz, data):
    return pb.DatasetHeader(
        digest=dataset.digest_of(layout, rows, cols, nnz, data),
        layout=layout, rows=rows, cols=cols, nnz=nnz, size=len(data),
    )


class DecodeTest(unittest.TestCase):
    def test_dense_round_trip(self):
        x = np.arange(6, dtype="<f8").reshape(2, 3) / 4
        data = bytearray(x.tobytes())
        got = dataset.decode(header(pb.DatasetHeader.DENSE, 2, 3, 0, data), data)
        np.testing.assert_array_equal(got, x)

    def test_csr_round_trip(self):
        m = scipy.sparse.csr_matrix(np.array([[0, 1.5, 0], [0, 0, 0], [2, 0, -3]]))
        data = bytearray(
            m.indptr.astype("<i8").tobytes() + m.indices.astype("<i4").tobytes() + m.data.astype("<f8").tobytes()
        )
        got = dataset.decode(header(pb.DatasetHeader.CSR, 3, 3, 3, data), data)
        self.assertTrue(scipy.sparse.issparse(got))
        np.testing.assert_array_equal(got.toarray(), m.toarray())

    def test_rejects(self):
        good = bytearray(struct.pack("<2d", 1, 2))
        cases = [
            ("digest mismatch", pb.DatasetHeader(digest="00", layout=1, rows=1, cols=2, size=16), good),
            ("needs 24 bytes", header(pb.DatasetHeader.DENSE, 1, 3, 0, good), good),
            ("is empty", header(pb.DatasetHeader.DENSE, 0, 2, 0, bytearray()), bytearray()),
            ("indptr must rise",
             header(pb.DatasetHeader.CSR, 1, 2, 1, bytearray(struct.pack("<qqid", 1, 0, 0, 1.0))),
             bytearray(struct.pack("<qqid", 1, 0, 0, 1.0))),
            ("column index is outside",
             header(pb.DatasetHeader.CSR, 1, 2, 1, bytearray(struct.pack("<qqid", 0, 1, 5, 1.0))),
             bytearray(struct.pack("<qqid", 0, 1, 5, 1.0))),
        ]
        for want, h, data in cases:
            with self.subTest(want):
                with self.assertRaisesRegex(ValueError, want):
                    dataset.decode(h, data)


class CacheTest(unittest.TestCase):
    def test_evicts_least_recently_used(self):
        c = dataset.Cache(budget=20)
        c.put("a", "A", 10)
        c.put("b", "B", 10)
        c.get("a")  # b is now the least recently used
        c.put("c", "C", 10)
        self.assertEqual([c.has(d) for d in "abc"], [True, False, True])
        c.put("big", "X", 100)  # always kept, everything else goes
        self.assertEqual([c.has(d) for d in ("a", "c", "big")], [False, False, True])
        c.remove("big")
        self.assertIsNone(c.get("big"))


class ParamSpecTest(unittest.TestCase):
    def test_check(self):
        from polyclass_plugin.learner import ParamSpec
        c = ParamSpec("C", "number", min=0.0, min_exclusive=True)
        n = ParamSpec("n", "integer", max=10.0)
        e = ParamSpec("estimator", "string")
        k = ParamSpec("kernel", "string", allowed=["rbf", "linear"])
        g = ParamSpec("gamma", "number_or_string", min=0.0, allowed=["scale", "auto"])
        cases = [
            (c, 1.0, None), (c, 0.0, "C = 0.0 is out of range: it must be > 0.0"), (c, "1", "C must be a number, not string"),
            (c, True, "C must be a number, not bool"), (n, 3.5, "n must be a whole number, not 3.5"),
            (n, 11.0, "n = 11.0 is out of range: it must be <= 10.0"), (e, True, "estimator must be a string, not bool"),
            (e, "sklearn.svm.SVC", None), (k, "poly", "kernel = 'poly' is not one of rbf, linear"),
            (g, "scale", None), (g, 0.1, None), (g, -1.0, "gamma = -1.0 is out of range: it must be >= 0.0"),
            (g, [1.0], "gamma must be a number or a string, not list"),
            (ParamSpec("w", "number_list"), [1.0, "x"], "w[1] must be a number, not string"),
            (ParamSpec("b", "bool"), 1.0, "b must be a bool, not number"),
            (ParamSpec("*", "any"), [1.0], None),
        ]
        for spec, v, want in cases:
            with self.subTest(spec=spec.name, v=v):
                self.assertEqual(spec.check(v), want)


class ValueTest(unittest.TestCase):
    def test_round_trip(self):
        for v in [1.5, "rbf", True, False, [1.0, [2.0, "x"]]]:
            with self.subTest(v=v):
                self.assertEqual(service.value_from_pb(service.value_to_pb(v)), v)

    def test_targets(self):
        rows = np.array([10, 11, 12, 13])
        p = pb.Problem(kind=pb.Problem.MULTICLASS, targets=[1, 0, 3, 2], num_classes=3, weights=[1, 2, 3, 4])
        kind, used, y, w = service._targets(p, rows)
        self.assertEqual(kind, "multiclass")
        np.testing.assert_array_equal(used, [10, 12, 13])
        np.testing.assert_array_equal(y, [0, 2, 1])
        np.testing.assert_array_equal(w, [1, 3, 4])
        with self.assertRaisesRegex(ValueError, "binary targets"):
            service._targets(pb.Problem(kind=pb.Problem.BINARY, targets=[1, 2, 0, 0]), rows)
        with self.assertRaisesRegex(ValueError, "uses no rows"):
            service._targets(pb.Problem(kind=pb.Problem.BINARY, targets=[0, 0, 0, 0]), rows)

    def test_compact_targets(self):
        # Rows of groups 1, 0, 2, 1; group g's target is code[g].
        rows, groups = np.array([10, 11, 12, 13]), np.array([1, 0, 2, 1])
        p = pb.Problem(kind=pb.Problem.BINARY, code=[0, 1, -1], weights=[1, 2, 3, 4])
        kind, used, y, w = service._targets(p, rows, groups)
        self.assertEqual(kind, "binary")
        np.testing.assert_array_equal(used, [10, 12, 13])
        np.testing.assert_array_equal(y, [1, -1, 1])
        np.testing.assert_array_equal(w, [1, 3, 4])
        for bad, msg in [
            (pb.Problem(kind=pb.Problem.BINARY, code=[0, 1]), "outside"),
            (pb.Problem(kind=pb.Problem.BINARY, code=[0, 1, 2]), "code entries"),
            (pb.Problem(kind=pb.Problem.REGRESSION, code=[0, 1, 1]), "not BINARY"),
            (pb.Problem(kind=pb.Problem.BINARY, code=[0, 1, 1], targets=[1, 1, 1, 1]), "both"),
        ]:
            with self.subTest(msg=msg), self.assertRaisesRegex(ValueError, msg):
                service._targets(bad, rows, groups)


class ListenTest(unittest.TestCase):
    def test_two_plugins_get_two_ports(self):
        # Two plugins scanning the same PLUGIN_MIN_PORT..PLUGIN_MAX_PORT must
        # not share a port (gRPC's default SO_REUSEPORT would let them).
        import importlib
        import os
        import socket

        serve = importlib.import_module("polyclass_plugin.serve")

        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        lo = probe.getsockname()[1]
        probe.close()
        old = {k: os.environ.get(k) for k in ("PLUGIN_MIN_PORT", "PLUGIN_MAX_PORT")}
        os.environ["PLUGIN_MIN_PORT"], os.environ["PLUGIN_MAX_PORT"] = str(lo), str(lo + 50)
        taken = socket.socket()
        taken.bind(("127.0.0.1", lo))  # a port someone else holds is skipped, not tried
        taken.listen()
        servers = [serve._new_server(1), serve._new_server(1)]
        try:
            self.assertFalse(serve._free(lo))
            ports = [serve._listen_tcp(s) for s in servers]
            for s in servers:
                s.start()
            self.assertNotEqual(ports[0], ports[1])
            self.assertNotIn(lo, ports)
        finally:
            taken.close()
            for s in servers:
                s.stop(None)
            for k, v in old.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v


class UnixSocketTest(unittest.TestCase):
    def test_listens_in_the_hosts_socket_directory(self):
        # The host names its private socket directory: the plugin listens
        # on a unix socket there (no loopback port any local user could
        # call) and answers on it.
        import importlib
        import os
        import tempfile

        import grpc

        serve = importlib.import_module("polyclass_plugin.serve")
        health_pb2 = importlib.import_module("polyclass_plugin._proto.health_pb2")
        health_grpc = importlib.import_module("polyclass_plugin._proto.health_pb2_grpc")

        old = os.environ.get("PLUGIN_UNIX_SOCKET_DIR")
        with tempfile.TemporaryDirectory() as d:
            os.environ["PLUGIN_UNIX_SOCKET_DIR"] = d
            server = serve._new_server(1)
            health_grpc.add_HealthServicer_to_server(serve._Health(), server)
            try:
                network, address = serve._listen(server)
                server.start()
                self.assertEqual(network, "unix")
                self.assertEqual(os.path.dirname(address), d)
                self.assertRegex(os.path.basename(address), r"^plugin[0-9a-f]{10}$")
                with grpc.insecure_channel("unix:" + address) as ch:
                    got = health_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(service="plugin"), timeout=10)
                self.assertEqual(got.status, health_pb2.HealthCheckResponse.SERVING)
            finally:
                server.stop(None)
                if old is None:
                    os.environ.pop("PLUGIN_UNIX_SOCKET_DIR", None)
                else:
                    os.environ["PLUGIN_UNIX_SOCKET_DIR"] = old

    def test_without_a_directory_a_loopback_port(self):
        import importlib
        import os

        serve = importlib.import_module("polyclass_plugin.serve")
        old = os.environ.pop("PLUGIN_UNIX_SOCKET_DIR", None)
        server = serve._new_server(1)
        try:
            network, address = serve._listen(server)
            self.assertEqual(network, "tcp")
            self.assertRegex(address, r"^127\.0\.0\.1:[0-9]+$")
        finally:
            server.stop(None)
            if old is not None:
                os.environ["PLUGIN_UNIX_SOCKET_DIR"] = old


class _Aborted(Exception):
    pass


class _Context:
    """A grpc.ServicerContext stand-in: abort raises _Aborted(code, message)."""

    def is_active(self):
        return True

    def set_trailing_metadata(self, md):
        pass

    def abort(self, code, message):
        raise _Aborted(code, message)


class _Model(learner.Model):
    def __init__(self, scores, probs=None, outputs=1):
        self.outputs, self._scores, self._probs = outputs, scores, probs

    def predict(self, X, probabilities):
        return self._scores, self._probs


class _Learner(learner.Learner):
    """Fits whatever fit_fn does; records the params it was given."""

    def __init__(self, fit_fn):
        self._fit, self.params = fit_fn, None

    def info(self):
        return learner.LearnerInfo(
            name="t", version="1",
            capabilities=learner.Capabilities(binary=True, scores=True, probabilities=True),
            params=[learner.ParamSpec("k", "integer", default=3), learner.ParamSpec("c", "number", default=1)],
        )

    def fit(self, problem, params):
        self.params = params
        return self._fit(problem)


class ServiceTest(unittest.TestCase):
    def service(self, fit_fn):
        svc = service.LearnerService(_Learner(fit_fn))
        x = np.arange(8, dtype=np.float64).reshape(4, 2)
        svc._cache.put("d", x, x.nbytes)
        return svc

    def fit(self, svc, params=None):
        req = pb.FitRequest(digest="d", rows=[0, 1, 2, 3],
                            problems=[pb.Problem(kind=pb.Problem.BINARY, targets=[1, -1, 1, -1])])
        for k, v in (params or {}).items():
            req.params[k].CopyFrom(service.value_to_pb(v))
        return svc.Fit(req, _Context())

    def predict(self, svc, handle):
        return svc.Predict(pb.PredictRequest(digest="d", rows=[0, 1, 2, 3], handles=[handle], probabilities=True), _Context())

    def test_integer_params_arrive_as_int(self):
        svc = self.service(lambda p: _Model(np.zeros(4)))
        self.fit(svc, {"k": 5.0, "c": 2.0})
        got = svc._learner.params
        self.assertEqual((got["k"], type(got["k"]), got["c"], type(got["c"])), (5, int, 2.0, float))
        self.fit(svc)  # the default, 3
        self.assertIs(type(svc._learner.params["k"]), int)

    def test_sys_exit_in_fit_fails_the_call(self):
        def fit(p):
            raise SystemExit(3)
        with self.assertRaises(_Aborted) as cm:
            self.fit(self.service(fit))
        self.assertRegex(cm.exception.args[1], r"^fit: problem 0: the learner called sys.exit\(3\) \(at test_sdk.py:\d+, in fit\)$")

    def test_where_raised(self):
        def deep():
            raise ValueError("x")
        try:
            deep()
        except ValueError as e:
            self.assertRegex(learner.where_raised(e), r"^ \(at test_sdk.py:\d+, in deep\)$")
        self.assertEqual(learner.where_raised(ValueError("never raised")), "")

    def test_prediction_shapes(self):
        good = np.zeros(4)
        cases = [
            ("fine", _Model(good, good), None),
            ("a column vector", _Model(good.reshape(4, 1), good.reshape(4, 1)), None),
            ("a row short", _Model(np.zeros(3)), "scores have shape (3, 1), want (4, 1)"),
            ("two columns for one output", _Model(np.zeros((4, 2))), "scores have shape (4, 2), want (4, 1)"),
            ("probabilities too wide", _Model(good, np.zeros((4, 2))), "probabilities have shape (4, 2), want (4, 1)"),
            ("not numbers", _Model(["a", "b", "c", "d"]), "scores are not an array of numbers"),
        ]
        for name, model, want in cases:
            with self.subTest(name):
                svc = self.service(lambda p, m=model: m)
                h = self.fit(svc).models[0].handle
                if want is None:
                    r = self.predict(svc, h)
                    self.assertEqual((r.scores.rows, r.scores.cols, r.probabilities.rows, r.probabilities.cols), (4, 1, 4, 1))
                    continue
                with self.assertRaises(_Aborted) as cm:
                    self.predict(svc, h)
                self.assertIn(f"predict: model 0: {want}", cm.exception.args[1])

    def test_rows_are_read_only(self):
        """A learner that writes into the rows it is given (problem.X in
        fit, X in predict, a CSR matrix's values) fails the call with
        numpy's refusal, where it was made and why; the cached rows, which
        every problem and model of a call share, stay as they were."""
        class Sparse(_Learner):
            def info(self):
                i = super().info()
                i.capabilities.sparse = True
                return i

        class Shifts(_Model):
            def predict(self, X, probabilities):
                X -= 1
                return self._scores, self._probs

        def scales(p):
            p.X *= 2

        def zeroes(p):
            p.X.data[0] = 0

        dense = np.arange(8, dtype=np.float64).reshape(4, 2)
        csr = scipy.sparse.csr_matrix(dense)
        why = ("; the rows the kit hands fit (problem.X) and predict (X) are read-only, shared by the models "
               "of a call: a learner that changes them must work on a copy (X.copy())")
        cases = [
            ("fit scales X", _Learner, dense, scales, None,
             r"^fit: problem 0: ValueError: output array is read-only \(at test_sdk.py:\d+, in scales\)"),
            ("fit writes a CSR value", Sparse, csr, zeroes, None,
             r"^fit: problem 0: ValueError: assignment destination is read-only \(at test_sdk.py:\d+, in zeroes\)"),
            ("predict shifts X", _Learner, dense, lambda p: Shifts(np.zeros(4)), "predict",
             r"^predict: model 0: ValueError: output array is read-only \(at test_sdk.py:\d+, in predict\)"),
        ]
        for name, cls, x, fit, at, want in cases:
            with self.subTest(name):
                svc = service.LearnerService(cls(fit))
                kept = x.copy()
                svc._cache.put("d", dataset.read_only(x.copy()), 64)
                with self.assertRaises(_Aborted) as cm:
                    h = self.fit(svc).models[0].handle
                    self.predict(svc, h)
                self.assertRegex(cm.exception.args[1], want)
                self.assertTrue(cm.exception.args[1].endswith(why), cm.exception.args[1])
                got = svc._cache.get("d")
                np.testing.assert_array_equal(got.toarray() if scipy.sparse.issparse(got) else got,
                                              kept.toarray() if scipy.sparse.issparse(kept) else kept)

    def test_not_converged_travels(self):
        class Stopped(_Model):
            not_converged = True

        for model, want in ((_Model(np.zeros(4)), False), (Stopped(np.zeros(4)), True)):
            with self.subTest(type(model).__name__):
                self.assertIs(self.fit(self.service(lambda p, m=model: m)).models[0].not_converged, want)

    def test_threads_reach_the_learner_and_limit_the_native_pools(self):
        import threadpoolctl

        threadpoolctl.threadpool_limits(limits=2)
        seen = []
        svc = self.service(lambda p: seen.append(p.threads) or _Model(np.zeros(4)))
        if not threadpoolctl.threadpool_info():
            self.fail("numpy loaded no native thread pool that threadpoolctl sees")
        before = [p["num_threads"] for p in threadpoolctl.threadpool_info()]

        def fit(threads):
            req = pb.FitRequest(digest="d", rows=[0, 1, 2, 3], threads=threads,
                                problems=[pb.Problem(kind=pb.Problem.BINARY, targets=[1, -1, 1, -1])] * 2)
            svc.Fit(req, _Context())
            return [p["num_threads"] for p in threadpoolctl.threadpool_info()]

        self.assertEqual(fit(0), before)  # no share given: the pools as they were
        self.assertEqual(fit(1), [1] * len(before))
        self.assertEqual(fit(0), [1] * len(before))  # a limit stays until a call asks for another
        with svc._threads.call(0):  # another call running: no resizing under it
            self.assertEqual(fit(2), [1] * len(before))
        self.assertEqual(fit(2), [2] * len(before))
        self.assertEqual(seen, [0, 0, 1, 1, 0, 0, 2, 2, 2, 2])

    def test_sklearn_bridge_leaves_n_jobs(self):
        # n_jobs > 1 may start joblib worker processes at every fit: the
        # share of the CPUs must not become n_jobs.
        import sklearn_bridge

        x = np.array([[0.0], [1.0], [2.0], [3.0]])
        y = np.array([-1.0, -1.0, 1.0, 1.0])
        for name, threads, params, want in [
            ("a share given", 2, {}, None),
            ("the experiment's own", 2, {"n_jobs": 2}, 2),
            ("no share given", 0, {}, None),
        ]:
            with self.subTest(name):
                fi = learner.FitInput(kind=learner.BINARY, X=x, y=y, weights=None, num_classes=2, seed=1, threads=threads)
                params = {"estimator": "sklearn.neighbors.KNeighborsClassifier", "n_neighbors": 1, **params}
                m = sklearn_bridge.SklearnLearner().fit(fi, params)
                self.assertEqual(m.est.n_jobs, want)

    def test_applies_when_travels(self):
        spec = learner.ParamSpec("epochs", "integer", default=100, applies_when=[
            learner.Condition(when={"solver": ["sgd", "gd"]}),
            learner.Condition(when={"multinomial": [False]}, problems=[learner.MULTICLASS]),
        ])
        out = service.spec_to_pb(spec)
        self.assertEqual(len(out.applies_when), 2)
        first, second = out.applies_when
        self.assertEqual([(c.param, [v.string for v in c.one_of]) for c in first.clauses], [("solver", ["sgd", "gd"])])
        self.assertEqual(list(first.problems), [])
        self.assertEqual([(c.param, [v.bool for v in c.one_of]) for c in second.clauses], [("multinomial", [False])])
        self.assertEqual(list(second.problems), [pb.Problem.MULTICLASS])
        self.assertEqual(len(service.spec_to_pb(learner.ParamSpec("C", "number")).applies_when), 0)
        with self.assertRaisesRegex(ValueError, "parameter epochs: unknown problem kind 'binray' in applies_when; the kinds are binary, multiclass, regression"):
            service.spec_to_pb(learner.ParamSpec("epochs", "integer", applies_when=[learner.Condition(problems=["binray"])]))

    def test_default_means_and_budget_travel(self):
        for name, spec, means, budget in [
            ("placeholder default", learner.ParamSpec("gamma", "number", default=0, default_means="1/features"), "1/features", False),
            ("budget", learner.ParamSpec("max_iter", "integer", default=100, budget=True), "", True),
            ("neither", learner.ParamSpec("C", "number", default=1), "", False),
        ]:
            with self.subTest(name):
                out = pb.ParamSpec.FromString(service.spec_to_pb(spec).SerializeToString())
                self.assertEqual(out.default_means, means)
                self.assertEqual(out.budget, budget)
                self.assertEqual(out.default.number, spec.default)

    def test_budget_travels(self):
        for name, spec, want in [
            ("a budget", learner.ParamSpec("max_iter", "integer", default=100, min=1, budget=True), True),
            ("not a budget", learner.ParamSpec("C", "number"), False),
        ]:
            with self.subTest(name):
                self.assertEqual(service.spec_to_pb(spec).budget, want)

    def test_at_most_training_rows_travels(self):
        for name, spec, want in [
            ("bounded by the rows", learner.ParamSpec("n_neighbors", "integer", default=5, min=1, at_most_training_rows=True), True),
            ("not bounded", learner.ParamSpec("C", "number"), False),
        ]:
            with self.subTest(name):
                self.assertEqual(service.spec_to_pb(spec).at_most_training_rows, want)

    def test_unknown_param_type_lists_the_types(self):
        with self.assertRaisesRegex(ValueError, "unknown type 'float'; the types are number, integer, string"):
            service.spec_to_pb(learner.ParamSpec("c", "float"))


class RuntimeTest(unittest.TestCase):
    def test_package_versions(self):
        import sys
        import types

        from polyclass_plugin import runtime

        # The imported module's version wins over the installed metadata.
        stub = types.ModuleType("polyclass_stub_mod")
        stub.__version__ = "9.9.9"
        sys.modules["polyclass_stub_mod"] = stub
        try:
            self.assertEqual(runtime.package("numpy", "polyclass_stub_mod"), runtime.Component("numpy", "9.9.9"))
        finally:
            del sys.modules["polyclass_stub_mod"]
        # Not imported: the distribution's metadata, read without importing.
        self.assertEqual(runtime.package("numpy", "polyclass_not_imported").version, np.__version__)
        self.assertEqual(runtime.package("polyclass-no-such-dist"), runtime.Component("polyclass-no-such-dist", ""))

    def test_info_reports_the_base_then_the_learners(self):
        import platform
        import sys

        import polyclass_plugin
        from polyclass_plugin import runtime

        class Lib(_Learner):
            def info(self):
                i = super().info()
                i.runtime = [runtime.Component("libfoo", "2.0")]
                return i

        got = service.LearnerService(Lib(None)).Info(pb.InfoRequest(), _Context()).runtime
        self.assertEqual(
            [(c.name, c.version, c.path) for c in got],
            [("python", platform.python_version(), sys.executable), ("polyclass-plugin", polyclass_plugin.__version__, ""),
             ("numpy", np.__version__, ""), ("scipy", scipy.__version__, ""), ("libfoo", "2.0", "")],
        )


class BridgeCheckTest(unittest.TestCase):
    """The bridge's check: the package allow-list before any import,
    get_params with did-you-mean, scikit-learn's constraints, and the
    runtime components of the listed packages."""

    def check(self, **params):
        import sklearn_bridge

        return sklearn_bridge.SklearnLearner().check(params)

    def refused(self, name, want, **params):
        with self.assertRaises(learner.ParamError) as cm:
            self.check(**params)
        self.assertEqual(cm.exception.name, name)
        self.assertIn(want, cm.exception.message)

    def test_package_checked_before_import(self):
        import sys

        self.assertNotIn("antigravity", sys.modules)
        self.refused("estimator", 'to use antigravity, list it: packages = ["antigravity"]', estimator="antigravity.Fly")
        self.refused("steps", "to use this, list it", estimator="sklearn.pipeline.Pipeline", steps=["this.Zen"])
        self.assertNotIn("antigravity", sys.modules)
        self.assertNotIn("this", sys.modules)
        self.refused("estimator", "is not an import path", estimator="LogisticRegression")
        self.refused("packages", "is not a top-level package name", packages=["a.b"])
        self.refused("packages", "'polyclass_no_such_package' is not installed", packages=["polyclass_no_such_package"])

    def test_did_you_mean(self):
        self.refused("estimator", "did you mean sklearn.linear_model.LogisticRegression?",
                     estimator="sklearn.linear_model.LogisticRegresion")
        self.refused("max_iters", "LogisticRegression has no parameter 'max_iters'; did you mean 'max_iter'?", max_iters=5.0)
        self.refused("C", "The 'C' parameter of LogisticRegression must be a float in the range (0, inf]", C=-1.0)
        self.refused("scores", "sklearn.svm.SVC has no predict_proba", estimator="sklearn.svm.SVC", scores="predict_proba")
        # A clusterer or a transformer is no learner: refused by the check
        # (bench validate), not first by every fold's fit.
        for est in ["sklearn.cluster.KMeans", "sklearn.preprocessing.StandardScaler"]:
            self.refused("estimator", f"{est} is neither a classifier nor a regressor", estimator=est)
        self.refused("estimator", "sklearn.pipeline.Pipeline is neither a classifier nor a regressor",
                     estimator="sklearn.pipeline.Pipeline", steps=["sklearn.preprocessing.StandardScaler"])
        self.assertEqual(self.check(estimator="sklearn.linear_model.Ridge"), [])

    def test_whole_numbers_beyond_64_bits(self):
        """A whole number beyond what numpy holds as int64 or uint64 is
        refused at its parameter, saying why: scikit-learn's own check of
        it says only "ufunc 'isnan' not supported", which named no
        parameter (estimator was blamed)."""
        seed = "is out of range: a seed is a whole number from 0 to 4294967295 (2^32 − 1)"
        pipe = dict(estimator="sklearn.pipeline.Pipeline", steps=["sklearn.linear_model.LogisticRegression"])
        cases = [
            ("random_state", {"random_state": 2.0**64}, f"random_state = 18446744073709551616 {seed}"),
            ("random_state", {"random_state": -(2.0**64)}, f"random_state = -18446744073709551616 {seed}"),
            ("random_state", {"random_state": 1e300}, f"random_state = 1e+300 {seed}"),
            ("logisticregression__random_state", {**pipe, "logisticregression__random_state": 2.0**64},
             f"logisticregression__random_state = 18446744073709551616 {seed}"),
            ("max_iter", {"max_iter": 2.0**64}, "max_iter = 18446744073709551616 is out of range: scikit-learn checks "
                                                "a whole number as a 64-bit integer, from −2^63 to 2^64 − 1"),
            # Within 64 bits, scikit-learn's own message names the parameter.
            ("random_state", {"random_state": 2.0**63}, "The 'random_state' parameter of LogisticRegression must be an "
                                                        "int in the range [0, 4294967295]"),
        ]
        for name, params, want in cases:
            with self.subTest(params=params):
                self.refused(name, want, **params)
        self.assertEqual(self.check(max_iter=2.0**64 - 2048), [])

    def test_pipeline_steps(self):
        pipe = dict(estimator="sklearn.pipeline.Pipeline",
                    steps=["sklearn.preprocessing.StandardScaler", "sklearn.linear_model.LogisticRegression"])
        self.assertEqual(self.check(**pipe, logisticregression__C=2.0), [])
        self.refused("logisticregression__C", "The 'C' parameter of LogisticRegression", **pipe, logisticregression__C=-1.0)
        self.refused("standardscaler__with_man", "did you mean 'standardscaler__with_mean'?", **pipe, standardscaler__with_man=True)
        self.refused("steps", "takes no steps", estimator="sklearn.svm.SVC", steps=["sklearn.svm.SVC"])
        import sklearn_bridge

        self.assertEqual(sklearn_bridge._step_names([np.ndarray, dict, np.ndarray]), ["ndarray-1", "dict", "ndarray-2"])

    def test_path_parameters_refused(self):
        """memory (a joblib cache directory, written to and read back) is
        refused at any nesting, before the estimator is made, with or
        without a value the estimator would take."""
        pipe = dict(estimator="sklearn.pipeline.Pipeline",
                    steps=["sklearn.cluster.FeatureAgglomeration", "sklearn.linear_model.LogisticRegression"])
        for name, params in [
            ("memory", dict(pipe, memory="/tmp/outside")),
            ("featureagglomeration__memory", dict(pipe, featureagglomeration__memory="/tmp/outside")),
            ("memory", dict(estimator="imblearn.pipeline.Pipeline", packages=["imblearn"],
                            steps=["sklearn.linear_model.LogisticRegression"], memory="/tmp/outside")),
            # An estimator without the parameter gets the same answer.
            ("memory", dict(memory="/tmp/outside")),
            ("a__memory", dict(pipe, a__memory="x", memory="y")),
        ]:
            with self.subTest(name=name, params=params):
                self.refused(name, f"{name} is a directory where joblib caches fitted transformers and loads "
                                   f"pickles back from, outside bench's results directory; the sklearn plugin "
                                   f"refuses it: leave {name} unset (no cache)", **params)
        # A name that only contains the word is another parameter.
        self.refused("memory_x", "has no parameter 'memory_x'", memory_x=1.0)
        self.assertEqual(self.check(**pipe), [])

    def test_runtime_of_listed_packages(self):
        import importlib.metadata

        got = self.check(estimator="sklearn.linear_model.LogisticRegression", packages=["scipy", "numpy"])
        self.assertEqual([(c.name, c.version) for c in got],
                         [("numpy", np.__version__), ("scipy", importlib.metadata.version("scipy"))])


# Modules for the import checks: a third-party package with private
# modules and a __main__ (see its docstring), modules that raise at import.
IMPORT_FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "testdata", "importfix")


class BridgeImportTest(unittest.TestCase):
    """packages names installed third-party packages only, never one of
    the standard library; the bridge never imports a __main__ module, and a
    private module only where its public parent has imported it."""

    def setUp(self):
        sys.path.insert(0, IMPORT_FIXTURE)
        self.addCleanup(sys.path.remove, IMPORT_FIXTURE)
        self.mark = os.path.join(tempfile.mkdtemp(), "mark")
        old = os.environ.get("POLYCLASS_FIXTURE_MARK")
        os.environ["POLYCLASS_FIXTURE_MARK"] = self.mark
        self.addCleanup(lambda: os.environ.pop("POLYCLASS_FIXTURE_MARK") if old is None
                        else os.environ.__setitem__("POLYCLASS_FIXTURE_MARK", old))

    def check(self, **params):
        import sklearn_bridge

        return sklearn_bridge.SklearnLearner().check(params)

    def refused(self, name, want, **params):
        with self.assertRaises(learner.ParamError) as cm:
            self.check(**params)
        self.assertEqual(cm.exception.name, name)
        self.assertIn(want, cm.exception.message)

    def assertNothingImported(self, *modules):
        for m in modules:
            self.assertFalse(m in sys.modules, f"{m} was imported")
        self.assertFalse(os.path.exists(self.mark), "a fixture module was imported")

    def test_standard_library_refused(self):
        """unittest.__main__ runs the test_*.py files of the working
        directory when imported, antigravity starts a web browser: no
        module of the standard library is a package an estimator comes
        from, built-in (sys) or not."""
        for name, estimator in [
            ("unittest", "unittest.__main__.X"),
            ("antigravity", "antigravity.X"),
            ("this", "this.X"),
            ("venv", "venv.__main__.X"),
            ("json", "json.JSONDecoder"),
            ("sys", "sys.X"),
        ]:
            with self.subTest(name=name):
                self.refused("packages", f"{name!r} is a module of Python's standard library; packages names "
                                         f"installed third-party packages (such as xgboost) that estimator and "
                                         f"steps may come from", packages=["numpy", name], estimator=estimator)
        self.assertNothingImported("unittest.__main__", "antigravity", "this", "venv.__main__")
        self.refused("packages", "'_polyclass_fixture' is a private module (its name starts with _)",
                     packages=["_polyclass_fixture"])

    def test_stdlib_origin(self):
        """A module whose file lies in the standard library's directory is
        refused whatever its name, unless it lies in a site-packages or
        dist-packages directory (which a virtual environment or a Python
        built from source keeps inside that directory)."""
        import importlib.util
        import site
        import sysconfig

        import sklearn_bridge

        stdlib = sysconfig.get_paths()["stdlib"]
        inside = os.path.join(stdlib, "polyclass_m.py")
        cases = [
            (importlib.util.spec_from_file_location("polyclass_m", inside), os.path.realpath(inside)),
            (importlib.util.find_spec("sys"), "built-in"),
            (importlib.util.find_spec("json"), os.path.join(os.path.realpath(stdlib), "json", "__init__.py")),
            (importlib.util.find_spec("numpy"), None),
            (importlib.util.find_spec("polyclass_fixture"), None),
        ]
        for d in [sysconfig.get_paths()["purelib"]] + site.getsitepackages():
            cases.append((importlib.util.spec_from_file_location("polyclass_m", os.path.join(d, "polyclass_m.py")), None))
        for spec, want in cases:
            with self.subTest(origin=spec.origin):
                self.assertEqual(sklearn_bridge._stdlib_origin(spec), want)

    def test_main_never_imported(self):
        for name, params in [
            ("estimator", dict(estimator="polyclass_fixture.__main__.Est")),
            ("steps", dict(estimator="sklearn.pipeline.Pipeline", steps=["polyclass_fixture.__main__.Est"])),
            ("estimator", dict(estimator="sklearn.__main__.X")),
        ]:
            with self.subTest(params=params):
                path = params.get("steps", [params["estimator"]])[0]
                self.refused(name, f"{path}: the bridge never imports a __main__ module (a program's entry point, "
                                   f"which acts when imported)", packages=["polyclass_fixture"], **params)
        self.assertNothingImported("polyclass_fixture.__main__", "sklearn.__main__")

    def test_private_module_only_when_imported(self):
        self.assertEqual(self.check(estimator="polyclass_fixture._loaded.Est", packages=["polyclass_fixture"]),
                         [learner.Component("polyclass_fixture", "")])
        self.assertEqual(self.check(estimator="sklearn.linear_model._logistic.LogisticRegression"), [])
        for path, private, public in [
            ("polyclass_fixture._unloaded.Est", "polyclass_fixture._unloaded", "polyclass_fixture"),
            ("polyclass_fixture._unloaded.deeper.Est", "polyclass_fixture._unloaded", "polyclass_fixture"),
            ("polyclass_fixture.__init__.Est", "polyclass_fixture.__init__", "polyclass_fixture"),
            ("polyclass_fixture._loaded.sub.Est", "polyclass_fixture._loaded.sub", "polyclass_fixture"),
        ]:
            with self.subTest(path=path):
                self.refused("estimator", f"{path}: {private} is a private module (a part starting with _) that "
                                          f"importing {public} does not import; name the class by its public "
                                          f"import path", estimator=path, packages=["polyclass_fixture"])
        self.assertNothingImported("polyclass_fixture._unloaded")

    def test_raise_at_import_answers(self):
        """A module that calls sys.exit or raises KeyboardInterrupt when
        imported left CheckParams unanswered (the check caught ImportError
        only, gRPC's worker thread took the rest) until the host's bound:
        it is an error at the parameter that named it."""
        for name, params, want in [
            ("estimator", dict(estimator="exits_at_import.X", packages=["exits_at_import"]),
             "cannot import exits_at_import.X: importing exits_at_import raised SystemExit(3) "
             "(at exits_at_import.py:5, in <module>)"),
            ("estimator", dict(estimator="interrupts_at_import.X", packages=["interrupts_at_import"]),
             "cannot import interrupts_at_import.X: importing interrupts_at_import raised KeyboardInterrupt "
             "(at interrupts_at_import.py:3, in <module>)"),
            ("steps", dict(estimator="sklearn.pipeline.Pipeline", steps=["exits_at_import.X"],
                           packages=["exits_at_import"]),
             "importing exits_at_import raised SystemExit(3)"),
        ]:
            with self.subTest(params=params):
                self.refused(name, want, **params)


class BridgeLabelsTest(unittest.TestCase):
    """Binary targets are fitted as 0/1 and a multiclass problem's classes
    as 0..m-1; scores come back in the problem's class columns."""

    def test_labels(self):
        import sklearn_bridge

        rng = np.random.default_rng(0)
        X = np.vstack([rng.normal(c, 0.3, size=(20, 2)) for c in (0, 3, 6)])
        cases = [
            (learner.BINARY, np.repeat([-1.0, 1.0, 1.0], 20), 2),
            (learner.MULTICLASS, np.repeat([1, 3, 4], 20), 5),  # classes 0 and 2 absent from the fold
        ]
        for kind, y, k in cases:
            for source in ("decision_function", "predict_proba", "predict"):
                with self.subTest(kind=kind, source=source):
                    fi = learner.FitInput(kind=kind, X=X, y=y, weights=None, num_classes=k, seed=1)
                    m = sklearn_bridge.SklearnLearner().fit(fi, {"scores": source})
                    self.assertEqual(sorted(np.unique(m.est.classes_)), list(range(len(np.unique(y)))))
                    s, p = m.predict(X, True)
                    if kind == learner.BINARY:
                        np.testing.assert_array_equal(np.where(s[:, 0] > 0, 1.0, -1.0), y)
                        np.testing.assert_array_equal(p[:, 0] > 0.5, y > 0)
                    else:
                        np.testing.assert_array_equal(np.argmax(s, axis=1), y)
                        np.testing.assert_allclose(p.sum(axis=1), 1)
                        self.assertTrue(np.all(p[:, [0, 2]] == 0))


class BridgeInPlaceTest(unittest.TestCase):
    """A transformer that works in place (copy = false) gives the numbers
    it gives with copy = true: each call of the estimator (fit,
    predict_proba, then decision_function of the same rows) gets its own
    copy of the rows, read-only as the kit hands them or not, and the
    rows stay as they were."""

    def test_copy_false_scores_as_copy_true(self):
        import sklearn.datasets
        import sklearn_bridge

        X, y = sklearn.datasets.load_iris(return_X_y=True)
        train, test = np.arange(0, 150, 2), np.arange(1, 150, 2)
        # Accuracy on the odd rows of a fit on the even ones, as
        # scikit-learn's own make_pipeline(StandardScaler(),
        # LogisticRegression()) gives it (73 of 75), and
        # make_pipeline(PowerTransformer(), LinearSVC(random_state=1)) for
        # versicolor against the rest (55 of 75).
        pipes = [
            ("standardscaler", learner.MULTICLASS, "sklearn.linear_model.LogisticRegression", "auto", 73 / 75),
            ("standardscaler", learner.MULTICLASS, "sklearn.linear_model.LogisticRegression", "decision_function", 73 / 75),
            ("powertransformer", learner.BINARY, "sklearn.svm.LinearSVC", "auto", 55 / 75),
        ]
        for scaler, kind, final, source, want in pipes:
            steps = [f"sklearn.preprocessing.{'StandardScaler' if scaler == 'standardscaler' else 'PowerTransformer'}", final]
            t = y if kind == learner.MULTICLASS else np.where(y == 1, 1.0, -1.0)
            got = {}
            for copy in (True, False):
                for writable in (True, False):
                    with self.subTest(scaler=scaler, source=source, copy=copy, writable=writable):
                        Xtr, Xte = X[train].copy(), X[test].copy()
                        Xtr.setflags(write=writable)
                        Xte.setflags(write=writable)
                        fi = learner.FitInput(kind=kind, X=Xtr, y=t[train], weights=None, num_classes=3 if kind == learner.MULTICLASS else 2, seed=1)
                        m = sklearn_bridge.SklearnLearner().fit(fi, {"estimator": "sklearn.pipeline.Pipeline", "steps": steps,
                                                                     f"{scaler}__copy": copy, "scores": source})
                        s, _ = m.predict(Xte, True)
                        s2, _ = m.predict(Xte, True)  # a second look at the same rows (another model of the call)
                        np.testing.assert_array_equal(s2, s)
                        np.testing.assert_array_equal(Xtr, X[train])
                        np.testing.assert_array_equal(Xte, X[test])
                        pred = s.argmax(axis=1) if kind == learner.MULTICLASS else np.where(s[:, 0] > 0, 1.0, -1.0)
                        self.assertAlmostEqual((pred == t[test]).mean(), want, delta=1e-9)
                        got[copy, writable] = s
            np.testing.assert_array_equal(got[False, True], got[True, True])
            np.testing.assert_array_equal(got[False, False], got[True, True])


class Warns:
    """A classifier whose fit raises a ConvergenceWarning when warn is
    true; it has neither n_iter_ nor max_iter."""

    _estimator_type = "classifier"  # what sklearn.base.is_classifier looks at

    def __init__(self, warn=True):
        self.warn = warn

    def get_params(self, deep=True):
        return {"warn": self.warn}

    def set_params(self, **params):
        for k, v in params.items():
            setattr(self, k, v)
        return self

    def fit(self, X, y):
        import warnings

        from sklearn.exceptions import ConvergenceWarning

        if self.warn:
            warnings.warn("Warns: stopped at its bound", ConvergenceWarning)
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(X.shape[0], self.classes_[0])


def _ovr_class():
    from sklearn.linear_model import LogisticRegression
    from sklearn.multiclass import OneVsRestClassifier

    class OVR(OneVsRestClassifier):
        """One-vs-rest logistic regressions at max_iter, fitted in n_jobs
        worker processes; quiet silences warnings during its fit."""

        def __init__(self, max_iter=3, n_jobs=None, quiet=False):
            self.max_iter, self.quiet = max_iter, quiet
            super().__init__(LogisticRegression(max_iter=max_iter), n_jobs=n_jobs)

        def fit(self, X, y, **kw):
            import warnings

            # set_params may have changed max_iter after __init__.
            self.estimator = LogisticRegression(max_iter=self.max_iter)
            if not self.quiet:
                return super().fit(X, y, **kw)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return super().fit(X, y, **kw)

    OVR.__module__, OVR.__qualname__ = __name__, "OVR"
    return OVR


try:
    OVR = _ovr_class()
except ImportError:  # scikit-learn absent: the tests that need it skip
    OVR = None


def _data():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(c, 1.0, size=(20, 2)) for c in (0, 2, 4)])
    return X, np.repeat([0, 1, 2], 20)


class BridgeConvergenceTest(unittest.TestCase):
    """A fit is not converged when the estimator, or a fitted estimator
    inside it, stops with n_iter_ at max_iter; the answer reads the fitted
    objects only, so it is the same for fits in worker processes and on
    several threads at once."""

    def setUp(self):
        try:
            import sklearn  # noqa: F401
        except ImportError:
            self.skipTest("scikit-learn is not installed")

    def fit(self, **params):
        import sklearn_bridge

        X, y = _data()
        fi = learner.FitInput(kind=learner.MULTICLASS, X=X, y=y, weights=None, num_classes=3, seed=1)
        return sklearn_bridge.SklearnLearner().fit(fi, params)

    def test_not_converged(self):
        import warnings

        lr = "sklearn.linear_model.LogisticRegression"
        ovr = {"estimator": "test_sdk.OVR", "packages": ["test_sdk"]}
        cases = [
            ("lbfgs at max_iter 2 (n_iter_ 2)", {"estimator": lr, "max_iter": 2}, True),
            ("lbfgs converged", {"estimator": lr, "max_iter": 1000}, False),
            # One n_iter_ per class.
            ("liblinear at max_iter 1", {"estimator": lr, "solver": "liblinear", "max_iter": 1}, True),
            ("SVC, max_iter -1 (no bound)", {"estimator": "sklearn.svm.SVC"}, False),
            ("SVC at max_iter 1", {"estimator": "sklearn.svm.SVC", "max_iter": 1}, True),
            # The sub-fits run in worker processes: their warnings never
            # reach this one, their n_iter_ does.
            ("one-vs-rest, n_jobs 2, at max_iter 3", dict(ovr, n_jobs=2), True),
            ("one-vs-rest, n_jobs 2, converged", dict(ovr, n_jobs=2, max_iter=1000), False),
            ("one-vs-rest silencing warnings, at max_iter 3", dict(ovr, quiet=True), True),
            ("one-vs-rest silencing warnings, converged", dict(ovr, quiet=True, max_iter=1000), False),
            # Warnings are not looked at: without n_iter_ no mark.
            ("a warning alone", {"estimator": "test_sdk.Warns", "packages": ["test_sdk"]}, False),
        ]
        filters, show = warnings.filters[:], warnings.showwarning
        for name, params, want in cases:
            with self.subTest(name):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    m = self.fit(**params)
                self.assertIs(m.not_converged, want)
        self.assertEqual((warnings.filters, warnings.showwarning), (filters, show))

    def test_nested(self):
        from sklearn.calibration import CalibratedClassifierCV
        from sklearn.ensemble import BaggingClassifier, HistGradientBoostingClassifier, StackingClassifier, VotingClassifier
        from sklearn.linear_model import LogisticRegression
        from sklearn.model_selection import GridSearchCV
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler
        from sklearn.tree import DecisionTreeClassifier

        import sklearn_bridge

        def lr(n):
            return LogisticRegression(max_iter=n)

        def pipe(n):
            return make_pipeline(StandardScaler(), lr(n))

        tree = DecisionTreeClassifier(random_state=0)
        cases = [
            ("pipeline", pipe(2), True),
            ("pipeline, converged", pipe(1000), False),
            ("search over a pipeline", GridSearchCV(pipe(2), {"standardscaler__with_mean": [True]}, cv=2), True),
            ("calibrated", CalibratedClassifierCV(lr(2), cv=2), True),
            ("calibrated, converged", CalibratedClassifierCV(lr(1000), cv=2), False),
            ("bagging", BaggingClassifier(lr(2), n_estimators=2, random_state=0), True),
            ("voting, one at its bound", VotingClassifier([("t", tree), ("lr", lr(2))]), True),
            ("voting, converged", VotingClassifier([("t", tree), ("lr", lr(1000))]), False),
            ("stacking: the final estimator at its bound", StackingClassifier([("t", tree)], final_estimator=lr(1), cv=2), True),
            ("a tree (no n_iter_)", tree, False),
            # max_iter counts boosting rounds: n_iter_ = max_iter is the
            # rule without early stopping, not a failure to converge.
            ("histogram gradient boosting", HistGradientBoostingClassifier(max_iter=5, random_state=0), False),
            ("bagging of histogram gradient boosting", BaggingClassifier(HistGradientBoostingClassifier(max_iter=5), n_estimators=2, random_state=0), False),
        ]
        X, y = _data()
        for name, est, want in cases:
            with self.subTest(name):
                import warnings

                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    est.fit(X, y)
                self.assertIs(sklearn_bridge._not_converged(est), want)

    def test_bound(self):
        import sklearn_bridge

        class Est:
            def __init__(self, n, bound):
                self.n_iter_, self.max_iter = n, bound

        cases = [
            ("scalar at bound", 5, 5, True),
            ("scalar below", 4, 5, False),
            ("array, one at bound", np.array([2, 5, 3]), 5, True),
            ("array below", np.array([[2, 4], [3, 1]]), 5, False),
            ("max_iter -1", 10, -1, False),
            ("max_iter None", 10, None, False),
            ("max_iter True", 10, True, False),
            ("empty n_iter_", np.array([]), 5, False),
            ("float bound", 5, 5.0, True),
        ]
        for name, n, bound, want in cases:
            with self.subTest(name):
                self.assertIs(sklearn_bridge._at_bound(Est(n, bound)), want)

    def test_two_threads(self):
        import threading

        # A quiet one-vs-rest (which swaps the process's warning filters in
        # its fit) and a plain one on two threads at once, five times: the
        # same answer every time.
        ovr = {"estimator": "test_sdk.OVR", "packages": ["test_sdk"]}
        for run in range(5):
            got = {}

            def fit(key, **params):
                got[key] = self.fit(**ovr, **params).not_converged

            threads = [
                threading.Thread(target=fit, args=("quiet",), kwargs={"quiet": True}),
                threading.Thread(target=fit, args=("plain",)),
                threading.Thread(target=fit, args=("converged",), kwargs={"max_iter": 1000}),
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            self.assertEqual(got, {"quiet": True, "plain": True, "converged": False}, f"run {run}")


class Malformed:
    """A classifier whose predict_proba, decision_function or predict
    answers wrongly as mode says."""

    _estimator_type = "classifier"

    def __init__(self, mode=""):
        self.mode = mode

    def get_params(self, deep=True):
        return {"mode": self.mode}

    def set_params(self, **params):
        for k, v in params.items():
            setattr(self, k, v)
        return self

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict_proba(self, X):
        p = np.full((X.shape[0], self.classes_.size), 1 / self.classes_.size)
        return p[:, :1] if self.mode == "column" else p

    def decision_function(self, X):
        d = np.zeros((X.shape[0], self.classes_.size))
        return d[:, :1] if self.mode == "column" else d

    def predict(self, X):
        pred = np.full(X.shape[0], self.classes_[-1], dtype=float)
        if self.mode == "half":
            pred[2] = 0.5
        elif self.mode == "label":
            pred[:] = 99
        elif self.mode == "text":
            return np.full(X.shape[0], "setosa")
        elif self.mode == "short":
            pred = pred[1:]
        return pred


class BridgeMalformedTest(unittest.TestCase):
    """Answers of the wrong shape and predictions that are not a fitted
    label are errors naming them, not broadcast or truncated."""

    def test_malformed(self):
        import sklearn_bridge

        X = np.arange(100, dtype=np.float64).reshape(50, 2)
        cases = [
            (learner.MULTICLASS, "predict_proba", "column", "the estimator's predict_proba has shape (50, 1), want (50, 3)"),
            (learner.MULTICLASS, "decision_function", "column", "the estimator's decision_function has shape (50, 1), want (50, 3)"),
            (learner.BINARY, "predict_proba", "column", "the estimator's predict_proba has shape (50, 1), want (50, 2)"),
            (learner.MULTICLASS, "predict", "half", "the estimator's predict returned 0.5 for row 2, not a label it was fitted on (0..2"),
            (learner.MULTICLASS, "predict", "label", "the estimator's predict returned 99.0 for row 0, not a label it was fitted on (0..2"),
            (learner.BINARY, "predict", "half", "the estimator's predict returned 0.5 for row 2, not a label it was fitted on (0..1"),
            (learner.MULTICLASS, "predict", "text", "the estimator's predict returned 'setosa' for row 0"),
            (learner.MULTICLASS, "predict", "short", "the estimator's predict has shape (49,), want (50,)"),
            (learner.MULTICLASS, "predict_proba", "", None),
            (learner.MULTICLASS, "decision_function", "", None),
            (learner.MULTICLASS, "predict", "", None),
        ]
        for kind, source, mode, want in cases:
            with self.subTest(kind=kind, source=source, mode=mode):
                y = np.repeat([-1.0, 1.0], 25) if kind == learner.BINARY else np.repeat([0, 1, 2], [17, 17, 16])
                k = 2 if kind == learner.BINARY else 3
                fi = learner.FitInput(kind=kind, X=X, y=y, weights=None, num_classes=k, seed=1)
                m = sklearn_bridge.SklearnLearner().fit(
                    fi, {"estimator": "test_sdk.Malformed", "packages": ["test_sdk"], "mode": mode, "scores": source})
                if want is None:
                    s, _ = m.predict(X, False)
                    self.assertEqual(s.shape, (50, m.outputs))
                    continue
                with self.assertRaises(ValueError) as cm:
                    m.predict(X, source != "decision_function")
                self.assertIn(want, str(cm.exception))


class CheckParamsServiceTest(unittest.TestCase):
    def test_spec_problems_then_learner_check(self):
        class Checked(_Learner):
            def check(self, params):
                if params["k"] > 4:
                    raise learner.ParamError("k", "too many")
                return [learner.Component("libfoo", "2.0")]

        svc = service.LearnerService(Checked(None))

        def check(**params):
            req = pb.CheckParamsRequest()
            for k, v in params.items():
                req.params[k].CopyFrom(service.value_to_pb(v))
            r = svc.CheckParams(req, _Context())
            return [(p.param, p.message) for p in r.problems], [(c.name, c.version) for c in r.runtime]

        self.assertEqual(check(), ([], [("libfoo", "2.0")]))
        self.assertEqual(check(k=5.0), ([("k", "too many")], []))
        problems, _ = check(kk=1.0, c="x")
        self.assertEqual(problems, [("c", "c must be a number, not string"),
                                    ("kk", "unknown (did you mean 'k'?); valid parameters: c, k")])

    def test_base_exception_in_check_answers(self):
        """A check that raises SystemExit or KeyboardInterrupt (an
        estimator's constructor, say) answers with a problem of the
        parameters as a whole, as any other exception does: gRPC's worker
        thread took them, and the call was never answered."""
        for exc, want in [(SystemExit(3), r"^check failed: the learner called sys.exit\(3\) \(at test_sdk.py:\d+, in check\)$"),
                          (KeyboardInterrupt(), r"^check failed: KeyboardInterrupt \(at test_sdk.py:\d+, in check\)$")]:
            class Raises(_Learner):
                def check(self, params, exc=exc):
                    raise exc

            with self.subTest(exc=type(exc).__name__):
                r = service.LearnerService(Raises(None)).CheckParams(pb.CheckParamsRequest(), _Context())
                self.assertEqual(len(r.problems), 1)
                self.assertEqual(r.problems[0].param, "")
                self.assertRegex(r.problems[0].message, want)


if __name__ == "__main__":
    unittest.main()
