"""The LearnerService: a Learner served over gRPC."""

import contextlib
import dataclasses
import difflib
import itertools
import os
import sys
import threading
import traceback

import grpc
import numpy as np
import scipy.sparse

from . import dataset, runtime
from ._proto import plugin_pb2 as pb
from ._proto import plugin_pb2_grpc as pb_grpc
from .learner import BINARY, MULTICLASS, PARAM_TYPES, REGRESSION, FitInput, ParamError, where_raised

_KINDS = {pb.Problem.BINARY: BINARY, pb.Problem.MULTICLASS: MULTICLASS, pb.Problem.REGRESSION: REGRESSION}


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b, n = n & 0x7F, n >> 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(num: int, data: bytes) -> bytes:
    """A length-delimited protobuf field."""
    return _varint(num << 3 | 2) + _varint(len(data)) + data


def param_status_details(code: int, message: str, name: str) -> bytes:
    """The google.rpc.Status (code, message, one google.rpc.BadRequest
    field violation "params.NAME") that gRPC carries in the trailer
    grpc-status-details-bin: the structured field by which the host locates
    a parameter's error. Encoded by hand: Debian's python3-grpcio comes
    without the google.rpc messages."""
    violation = _field(1, ("params." + name).encode()) + _field(2, message.encode())
    any_ = _field(1, b"type.googleapis.com/google.rpc.BadRequest") + _field(2, _field(1, violation))
    return _varint(1 << 3) + _varint(code) + _field(2, message.encode()) + _field(3, any_)


def abort_param(context, name: str, message: str):
    """Aborts the call with INVALID_ARGUMENT blaming parameter name."""
    code = grpc.StatusCode.INVALID_ARGUMENT
    context.set_trailing_metadata((("grpc-status-details-bin", param_status_details(code.value[0], message, name)),))
    context.abort(code, message)


def value_from_pb(v):
    """A protocol Value as Python: float, str, bool, list or None."""
    kind = v.WhichOneof("kind")
    if kind == "number":
        return v.number
    if kind == "string":
        return v.string
    if kind == "bool":
        return v.bool
    if kind == "list":
        return [value_from_pb(e) for e in v.list.values]
    return None


def value_to_pb(x):
    """A Python value (number, str, bool, list) as a protocol Value."""
    if x is None:
        return None
    if isinstance(x, bool):
        return pb.Value(bool=x)
    if isinstance(x, (int, float)):
        return pb.Value(number=float(x))
    if isinstance(x, str):
        return pb.Value(string=x)
    return pb.Value(list=pb.ValueList(values=[value_to_pb(e) for e in x]))


def spec_to_pb(s):
    if s.type not in PARAM_TYPES:
        raise ValueError(f"parameter {s.name}: unknown type {s.type!r}; the types are {', '.join(PARAM_TYPES)}")
    out = pb.ParamSpec(
        name=s.name,
        type=PARAM_TYPES.index(s.type) + 1,
        description=s.description,
        allowed=s.allowed,
        min_exclusive=s.min_exclusive,
        budget=s.budget,
        default_means=s.default_means,
        at_most_training_rows=s.at_most_training_rows,
    )
    if s.default is not None:
        out.default.CopyFrom(value_to_pb(s.default))
    for c in s.applies_when:
        out.applies_when.append(condition_to_pb(s.name, c))
    # min and max are proto3 optional: assigning one sends it, 0 included;
    # the deprecated has_min/has_max flags are set too, for hosts that read
    # only them.
    if s.min is not None:
        out.min = s.min
        out.has_min = True
    if s.max is not None:
        out.max = s.max
        out.has_max = True
    return out


def condition_to_pb(name, c):
    """Condition c of parameter name as a protocol Condition."""
    out = pb.Condition()
    for param, values in c.when.items():
        out.clauses.append(pb.Clause(param=param, one_of=[value_to_pb(v) for v in values]))
    for k in c.problems:
        if k not in (BINARY, MULTICLASS, REGRESSION):
            raise ValueError(f"parameter {name}: unknown problem kind {k!r} in applies_when; the kinds are {BINARY}, {MULTICLASS}, {REGRESSION}")
        out.problems.append(pb.Problem.Kind.Value(k.upper()))
    return out


def dense_to_pb(a):
    """A 2-D array as a protocol Dense (little-endian float64, row-major)."""
    a = np.ascontiguousarray(a, dtype="<f8")
    return pb.Dense(rows=a.shape[0], cols=a.shape[1], data=a.tobytes())


def _dense_targets(p, groups):
    """A problem's targets, dense: its code (compact targets) expanded over
    the request's row groups (plugin.proto's Problem.code), else its
    targets."""
    if not len(p.code):
        return np.asarray(p.targets, dtype=np.float64)
    if _KINDS.get(p.kind) != BINARY:
        raise ValueError("compact targets (code) on a problem that is not BINARY")
    if len(p.targets):
        raise ValueError(f"both targets ({len(p.targets)}) and code ({len(p.code)})")
    code = np.asarray(p.code, dtype=np.float64)
    if not np.all((code == 0) | (code == 1) | (code == -1)):
        raise ValueError("code entries must be −1, 0 or +1")
    if groups.size and (groups.min() < 0 or groups.max() >= code.shape[0]):
        raise ValueError(f"row groups outside the code's 0..{code.shape[0] - 1}")
    return code[groups]


def _targets(p, rows, groups=np.zeros(0, dtype=np.int64)):
    """The rows a problem uses and its targets in FitInput's convention."""
    t = _dense_targets(p, groups)
    if t.shape[0] != rows.shape[0]:
        raise ValueError(f"{t.shape[0]} targets for {rows.shape[0]} rows")
    w = None
    if len(p.weights):
        w = np.asarray(p.weights, dtype=np.float64)
        if w.shape[0] != rows.shape[0]:
            raise ValueError(f"{w.shape[0]} weights for {rows.shape[0]} rows")
    kind = _KINDS.get(p.kind)
    if kind == BINARY:
        if not np.all((t == 0) | (t == 1) | (t == -1)):
            raise ValueError("binary targets must be −1, 0 or +1")
        used = t != 0
        y = t[used]
    elif kind == MULTICLASS:
        # The one place the SDK sees the wire's class numbers: 1..K, 0 for
        # a row not used (plugin.proto's Problem.Kind); authors get class
        # indices 0..K−1, as in every other message.
        if not np.all((t == np.round(t)) & (t >= 0) & (t <= p.num_classes)):
            raise ValueError(f"class targets must be in 0..{p.num_classes}")
        used = t != 0
        y = t[used].astype(np.int64) - 1
    elif kind == REGRESSION:
        used = np.ones(t.shape[0], dtype=bool)
        y = t
    else:
        raise ValueError(f"unknown problem kind {p.kind}")
    if not used.any():
        raise ValueError("the problem uses no rows")
    if w is not None:
        w = w[used]
    return kind, rows[used], y, w


def did_you_mean(name: str, candidates) -> str:
    """" (did you mean 'X'?)" for the candidate closest to a misspelt name,
    or "" when none is close (difflib's ratio of at least 0.6)."""
    close = difflib.get_close_matches(name, list(candidates), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _describe(e: BaseException) -> str:
    """An exception of a learner's fit or predict in one line, with where it
    was raised (the last frame of its traceback, which the run log holds
    whole), and why when it is numpy's refusal of a write into the
    read-only rows (see dataset.read_only)."""
    if isinstance(e, SystemExit):
        what = f"the learner called sys.exit({e.code!r})"
    else:
        what = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
    why = _READ_ONLY_WHY if isinstance(e, ValueError) and "read-only" in str(e) else ""
    return what + where_raised(e) + why


def _columns(a, rows: int, outputs: int, what: str):
    """a (the scores or probabilities a model's predict returned) as a
    rows × outputs float array, and None; or None and why it is not one. A
    vector of rows entries is taken as one column."""
    try:
        a = np.asarray(a, dtype=np.float64)
    except (TypeError, ValueError) as e:
        return None, f"{what} are not an array of numbers: {e}"
    if a.ndim == 1 and outputs == 1:
        a = a.reshape(-1, 1)
    if a.ndim != 2 or a.shape != (rows, outputs):
        return None, (f"{what} have shape {a.shape}, want ({rows}, {outputs}): "
                      f"one row per input row, one column per output of the model (Model.outputs = {outputs})")
    return a, None


# What the kit adds to numpy's refusal of a write into a read-only array
# ("assignment destination is read-only", "output array is read-only").
_READ_ONLY_WHY = ("; the rows the kit hands fit (problem.X) and predict (X) are read-only, shared by the models "
                  "of a call: a learner that changes them must work on a copy (X.copy())")


class NativeThreads:
    """Limits the process's native thread pools (OpenBLAS, MKL, OpenMP:
    those threadpoolctl finds loaded when the service starts) to the
    threads a Fit call asks for, as joblib limits the pools of each of its
    workers: with ``bench run -j N`` the host sends each fold its share of
    the CPUs, and a BLAS pool as large as the machine in each of N
    concurrent fits would oversubscribe it N times.

    The pools belong to the process, not to a call, and resizing one while
    another thread computes in it is unsafe, so a limit changes only when
    no other Fit or Predict call is running; calls running at once share
    the limit in force (the host gives concurrent folds equal shares). A
    limit is never restored: it stays until a call asks for another. 0
    (the host leaves it to the plugin) changes nothing. The pools are
    found once, at start-up: looking again would walk the loaded libraries
    under the dynamic loader's lock, which deadlocks against an extension
    module imported on another thread at that moment. Without threadpoolctl
    (it comes with Debian's python3-sklearn) nothing is limited.
    """

    def __init__(self):
        try:
            from threadpoolctl import ThreadpoolController

            self._ctl = ThreadpoolController()
        except ImportError:
            self._ctl = None
        self._lock = threading.Lock()
        self._running = 0
        self._limit = 0

    @contextlib.contextmanager
    def call(self, threads: int):
        """Runs a call's body, first limiting the pools to threads (> 0)
        when no other call is running."""
        with self._lock:
            if threads > 0 and self._ctl is not None and self._running == 0 and threads != self._limit:
                self._ctl.limit(limits=threads)
                self._limit = threads
            self._running += 1
        try:
            yield
        finally:
            with self._lock:
                self._running -= 1


class LearnerService(pb_grpc.LearnerServiceServicer):
    """Serves a Learner: uploads by digest, batch Fit and Predict, handles."""

    def __init__(self, learner, cache_bytes=dataset.DEFAULT_CACHE_BYTES):
        self._learner = learner
        self._info = learner.info()
        self._cache = dataset.Cache(cache_bytes)
        self._models = {}
        self._lock = threading.Lock()
        self._next = itertools.count(1)
        self._threads = NativeThreads()

    # ------------------------------------------------------------ datasets

    def Info(self, request, context):
        i, c = self._info, self._info.capabilities
        return pb.LearnerInfo(
            name=i.name, version=i.version, description=i.description,
            binary=c.binary, multiclass=c.multiclass, regression=c.regression,
            scores=c.scores, probabilities=c.probabilities, sparse=c.sparse, weights=c.weights,
            params=[spec_to_pb(s) for s in i.params],
            # The SDK expands compact targets before fit sees them.
            code_targets=True,
            runtime=[pb.Component(name=c.name, version=c.version, path=c.path) for c in runtime.base() + list(i.runtime)],
        )

    def Has(self, request, context):
        return pb.HasResponse(missing=[d for d in request.digests if not self._cache.has(d)])

    def Upload(self, request_iterator, context):
        first = next(request_iterator, None)
        if first is None or not first.HasField("header"):
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "upload: the first message carries no header")
        h = first.header
        if h.size < 0 or h.size > 1 << 40:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"upload: implausible size {h.size}")
        data = bytearray(first.data)
        for chunk in request_iterator:
            if len(chunk.data) > dataset.CHUNK_SIZE:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                              f"upload: chunk of {len(chunk.data)} bytes exceeds {dataset.CHUNK_SIZE}")
            data += chunk.data
        if len(data) != h.size:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                          f"upload {h.digest}: received {len(data)} bytes, header says {h.size}")
        try:
            m = dataset.decode(h, data)
        except ValueError as e:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"upload: {e}")
        self._cache.put(h.digest, m, len(data))
        return pb.UploadResponse(digest=h.digest)

    def Forget(self, request, context):
        for d in request.digests:
            self._cache.remove(d)
        return pb.ForgetResponse()

    def _dataset_rows(self, digest, rows, context):
        x = self._cache.get(digest)
        if x is None:
            context.abort(grpc.StatusCode.FAILED_PRECONDITION, f"dataset {digest} is not loaded (upload it first)")
        r = np.asarray(rows, dtype=np.int64)
        n = x.shape[0]
        bad = r[(r < 0) | (r >= n)]
        if bad.size:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"row {bad[0]} out of range 0..{n - 1}")
        return x, r

    def _input(self, x, rows):
        """The rows of dataset x a learner gets, read-only (see
        dataset.read_only)."""
        sub = x[rows]
        if scipy.sparse.issparse(sub) and not self._info.capabilities.sparse:
            sub = sub.toarray()
        return dataset.read_only(sub)

    # ------------------------------------------------------------ models

    def _checked_params(self, values):
        """The parameters of a request (a map of protocol Values) checked
        against the specs and completed with their defaults, and the
        problems found: (name, message) pairs."""
        specs = {s.name: s for s in self._info.params}
        wildcard = "*" in specs and specs["*"].type == "any"
        params = {s.name: s.default for s in self._info.params if s.default is not None and s.name != "*"}
        problems = []
        for name in sorted(values):
            if name not in specs and not wildcard:
                names = sorted(specs)
                problems.append((name, f"unknown{did_you_mean(name, names)}; valid parameters: {', '.join(names)}"))
                continue
            value = value_from_pb(values[name])
            problem = dataclasses.replace(specs.get(name) or specs["*"], name=name).check(value)
            if problem is not None:
                problems.append((name, problem))
            params[name] = value
        # Integer parameters travel as numbers (doubles); the learner gets
        # them as int, ready for range() and array sizes.
        for name, v in params.items():
            spec = specs.get(name)
            if spec is not None and spec.type == "integer" and isinstance(v, float):
                params[name] = int(v)
        return params, problems

    def _params(self, request, context):
        params, problems = self._checked_params(request.params)
        if problems:
            name, message = problems[0]
            abort_param(context, name, f"parameter {name}: {message}")
        return params

    def CheckParams(self, request, context):
        """Checks one combination of parameters against the specs, then
        with the learner's check (Learner.check), and reports what the
        learner computes with for them."""
        params, problems = self._checked_params(request.params)
        resp = pb.CheckParamsResponse()
        for name, message in problems:
            resp.problems.add(param=name, message=message)
        if problems:
            return resp
        try:
            extra = self._learner.check(params) or []
        except ParamError as e:
            resp.problems.add(param=e.name, message=e.message)
            return resp
        except BaseException as e:  # the learner's own failure (sys.exit too): a problem of the parameters as a whole
            traceback.print_exc(file=sys.stderr)
            resp.problems.add(message=f"check failed: {_describe(e)}")
            return resp
        for c in extra:
            resp.runtime.add(name=c.name, version=c.version, path=c.path)
        return resp

    def Fit(self, request, context):
        x, rows = self._dataset_rows(request.digest, request.rows, context)
        params = self._params(request, context)
        c = self._info.capabilities
        able = {BINARY: c.binary, MULTICLASS: c.multiclass, REGRESSION: c.regression}
        inputs = []
        groups = np.asarray(request.row_groups, dtype=np.int64)
        for i, p in enumerate(request.problems):
            try:
                kind, used, y, w = _targets(p, rows, groups)
            except ValueError as e:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"problem {i}: {e}")
            if not able[kind]:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                              f"problem {i}: {self._info.name} cannot train {kind} problems")
            inputs.append((kind, used, y, w, p))
        with self._threads.call(request.threads):
            models = self._fit_all(inputs, x, params, request.threads, context)
        resp = pb.FitResponse()
        with self._lock:
            for m in models:
                h = f"m{next(self._next)}"
                self._models[h] = m
                resp.models.add(handle=h, outputs=m.outputs, not_converged=bool(getattr(m, "not_converged", False)))
        return resp

    def _fit_all(self, inputs, x, params, threads, context):
        """Trains the checked problems of a Fit call one after the other."""
        models = []
        for i, (kind, used, y, w, p) in enumerate(inputs):
            if not context.is_active():
                context.abort(grpc.StatusCode.CANCELLED, "fit cancelled")
            fi = FitInput(kind=kind, X=self._input(x, used), y=y, weights=w, num_classes=p.num_classes, seed=p.seed,
                          threads=threads)
            try:
                models.append(self._learner.fit(fi, params))
            except ParamError as e:
                abort_param(context, e.name, f"problem {i}: {e}")
            except BaseException as e:  # the learner's own failure (sys.exit too) fails this call only
                traceback.print_exc(file=sys.stderr)  # to the run log: where it failed
                context.abort(grpc.StatusCode.INTERNAL, f"fit: problem {i}: {_describe(e)}")
        return models

    def Predict(self, request, context):
        x, rows = self._dataset_rows(request.digest, request.rows, context)
        with self._lock:
            missing = [h for h in request.handles if h not in self._models]
            models = [self._models.get(h) for h in request.handles]
        if missing:
            context.abort(grpc.StatusCode.NOT_FOUND, f"no model {missing[0]!r}")
        if rows.size == 0 or not models:
            return pb.PredictResponse()
        want = request.probabilities and self._info.capabilities.probabilities
        sub = self._input(x, rows)
        scores, probs = [], []
        with self._threads.call(0):  # no resizing of the pools under the predictions
            # An error names the model by its place in the request, from 0
            # (as a Fit error names its problem), not by its handle, which
            # counts the models in the order the process fitted them.
            for i, m in enumerate(models):
                if not context.is_active():
                    context.abort(grpc.StatusCode.CANCELLED, "predict cancelled")
                try:
                    s, p = m.predict(sub, want)
                except BaseException as e:
                    traceback.print_exc(file=sys.stderr)
                    context.abort(grpc.StatusCode.INTERNAL, f"predict: model {i}: {_describe(e)}")
                s, why = _columns(s, rows.size, m.outputs, "scores")
                if why is None and p is not None:
                    p, why = _columns(p, rows.size, m.outputs, "probabilities")
                if why is not None:
                    context.abort(grpc.StatusCode.INTERNAL, f"predict: model {i}: {why}")
                scores.append(s)
                probs.append(p)
        resp = pb.PredictResponse(scores=dense_to_pb(np.hstack(scores)))
        # Probabilities come back only when every model has them.
        if want and all(p is not None for p in probs):
            resp.probabilities.CopyFrom(dense_to_pb(np.hstack(probs)))
        return resp

    def Release(self, request, context):
        with self._lock:
            for h in request.handles:
                self._models.pop(h, None)
        return pb.ReleaseResponse()
