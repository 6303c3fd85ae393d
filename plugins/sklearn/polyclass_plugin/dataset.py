"""Uploaded datasets: the wire layouts, their digest and the cache."""

import collections
import hashlib
import struct
import threading

import numpy as np
import scipy.sparse

from ._proto import plugin_pb2 as pb

# Largest data chunk of an upload (the host sends at most this much per
# message).
CHUNK_SIZE = 1 << 20

# Default byte budget of the dataset cache.
DEFAULT_CACHE_BYTES = 4 << 30


def digest_of(layout: int, rows: int, cols: int, nnz: int, data) -> str:
    """Lower-case hex SHA-256 of the layout byte, rows, cols and nnz as
    little-endian int64, then the data bytes (DatasetHeader.digest)."""
    h = hashlib.sha256()
    h.update(bytes([layout]) + struct.pack("<qqq", rows, cols, nnz))
    h.update(data)
    return h.hexdigest()


def decode(header, data: bytearray):
    """Checks an upload against its header and returns the matrix: a
    numpy array (DENSE) or a scipy.sparse.csr_matrix (CSR), its arrays
    read-only (the cache shares it among every call that names its
    digest)."""
    rows, cols, nnz = header.rows, header.cols, header.nnz
    got = digest_of(header.layout, rows, cols, nnz, data)
    if got != header.digest:
        raise ValueError(f"dataset digest mismatch: header says {header.digest}, content hashes to {got}")
    if rows <= 0 or cols <= 0:
        raise ValueError(f"dataset {rows}×{cols} is empty")
    if header.layout == pb.DatasetHeader.DENSE:
        if len(data) != 8 * rows * cols:
            raise ValueError(f"dense dataset {rows}×{cols} needs {8 * rows * cols} bytes, got {len(data)}")
        return read_only(np.frombuffer(data, dtype="<f8").reshape(rows, cols))
    if header.layout == pb.DatasetHeader.CSR:
        want = 8 * (rows + 1) + 12 * nnz
        if len(data) != want:
            raise ValueError(f"CSR dataset {rows}×{cols} with {nnz} entries needs {want} bytes, got {len(data)}")
        mv = memoryview(data)
        k = 8 * (rows + 1)
        indptr = np.frombuffer(mv[:k], dtype="<i8")
        indices = np.frombuffer(mv[k : k + 4 * nnz], dtype="<i4")
        values = np.frombuffer(mv[k + 4 * nnz :], dtype="<f8")
        if indptr[0] != 0 or indptr[-1] != nnz or np.any(np.diff(indptr) < 0):
            raise ValueError("CSR dataset: indptr must rise from 0 to nnz")
        if nnz and (indices.min() < 0 or indices.max() >= cols):
            raise ValueError(f"CSR dataset: a column index is outside 0..{cols - 1}")
        return read_only(scipy.sparse.csr_matrix((values, indices, indptr), shape=(rows, cols)))
    raise ValueError(f"unknown dataset layout {header.layout}")


def read_only(m):
    """m (a numpy array or a scipy.sparse matrix) with its arrays (a sparse
    matrix's data, indices and indptr) made read-only, and m. The kit hands
    a learner its rows so: predict's rows go to every model of a Predict
    call in turn, and a learner that wrote into them (a scaler working in
    place) would change the rows the next model predicts, and its own
    second look at them; numpy refuses the write instead ("assignment
    destination is read-only"), and the kit's report of the error says
    why."""
    parts = (m.data, m.indices, m.indptr) if scipy.sparse.issparse(m) else (m,)
    for a in parts:
        a.setflags(write=False)
    return m


class Cache:
    """Datasets by digest, least recently used evicted beyond a byte budget
    (the entry just added is always kept)."""

    def __init__(self, budget: int = DEFAULT_CACHE_BYTES):
        self._budget = budget
        self._used = 0
        self._entries = collections.OrderedDict()  # digest -> (matrix, size)
        self._lock = threading.Lock()

    def has(self, digest: str) -> bool:
        with self._lock:
            return digest in self._entries

    def get(self, digest: str):
        with self._lock:
            e = self._entries.get(digest)
            if e is None:
                return None
            self._entries.move_to_end(digest)
            return e[0]

    def put(self, digest: str, matrix, size: int) -> None:
        with self._lock:
            if digest in self._entries:
                self._entries.move_to_end(digest)
                return
            self._entries[digest] = (matrix, size)
            self._used += size
            while self._used > self._budget and len(self._entries) > 1:
                _, (_, s) = self._entries.popitem(last=False)
                self._used -= s

    def remove(self, digest: str) -> None:
        with self._lock:
            e = self._entries.pop(digest, None)
            if e is not None:
                self._used -= e[1]
