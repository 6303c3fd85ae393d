"""The go-plugin handshake and the gRPC server.

hashicorp/go-plugin starts the plugin executable with the magic cookie in
its environment and reads one line from its stdout:

    CORE-PROTOCOL-VERSION|APP-PROTOCOL-VERSION|NETWORK|ADDRESS|PROTOCOL

here ``1|1|unix|PATH|grpc``: go-plugin's core protocol 1, polyclass plugin
protocol 1, a unix socket in the directory the host names in
PLUGIN_UNIX_SOCKET_DIR (the host's own, which no other user may enter, so
that no other user can call the plugin), gRPC. A host that names no such
directory gets ``1|1|tcp|127.0.0.1:PORT|grpc``, a listener on the loopback
interface, which any local user could reach. The host
then dials the address and uses three services: ``grpc.health.v1.Health``
(Check of service "plugin" must say SERVING), ``plugin.GRPCController``
(Shutdown stops the plugin) and polyclass's ``LearnerService``.
"""

import os
import secrets
import socket
import signal
import sys
import threading
from concurrent import futures

import grpc

from . import dataset
from ._proto import grpc_controller_pb2 as ctl_pb
from ._proto import grpc_controller_pb2_grpc as ctl_grpc
from ._proto import health_pb2
from ._proto import health_pb2_grpc
from ._proto import plugin_pb2_grpc as pb_grpc
from .service import LearnerService

# The magic cookie: the host sets COOKIE_KEY=COOKIE_VALUE in the plugin's
# environment (framework/sdk Handshake). It keeps the plugin from being run
# by hand by mistake; it is not a security measure.
COOKIE_KEY = "POLYCLASS_PLUGIN"
COOKIE_VALUE = "d0c1a55e5-multiclass-reduction"

# The polyclass plugin protocol version this SDK speaks.
PROTOCOL_VERSION = 1

# go-plugin's own protocol version (the first field of the handshake line).
CORE_PROTOCOL_VERSION = 1

# Messages up to 256 MiB in both directions, the host's and the Go SDK's
# bound (MaxMessageSize in framework/internal/wire,
# which says why): score matrices of large test folds exceed gRPC's 4 MiB
# default, and the host splits Fit and Predict calls to stay within it.
MAX_MESSAGE_SIZE = 256 << 20


class _Health(health_pb2_grpc.HealthServicer):
    def Check(self, request, context):
        return health_pb2.HealthCheckResponse(status=health_pb2.HealthCheckResponse.SERVING)


class _Controller(ctl_grpc.GRPCControllerServicer):
    def __init__(self, stop):
        self._stop = stop

    def Shutdown(self, request, context):
        self._stop.set()
        return ctl_pb.Empty()


def _fail(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()
    sys.exit(1)


def _check_environment():
    """Checks the cookie and the protocol versions the host offers."""
    if os.environ.get(COOKIE_KEY) != COOKIE_VALUE:
        _fail(
            "This binary is a polyclass plugin. It is not meant to be run by hand:\n"
            "bench starts it. (The environment lacks the plugin's magic cookie.)"
        )
    offered = os.environ.get("PLUGIN_PROTOCOL_VERSIONS", "")
    if offered and str(PROTOCOL_VERSION) not in offered.split(","):
        _fail(f"the host speaks plugin protocol version(s) {offered}; this plugin speaks {PROTOCOL_VERSION}")
    if os.environ.get("PLUGIN_CLIENT_CERT"):
        _fail("the host asks for automatic mTLS, which this Python SDK does not support")


def _listen(server):
    """Listens where the host asks and returns the handshake's network and
    address: a unix socket in PLUGIN_UNIX_SOCKET_DIR when the host names
    one, else a loopback port."""
    sock_dir = os.environ.get("PLUGIN_UNIX_SOCKET_DIR")
    if sock_dir:
        path = _socket_path(sock_dir)
        try:
            bound = server.add_insecure_port("unix:" + path)
        except RuntimeError:
            bound = 0
        if not bound:
            _fail(f"cannot listen on the unix socket {path!r} (PLUGIN_UNIX_SOCKET_DIR)")
        return "unix", path
    return "tcp", f"127.0.0.1:{_listen_tcp(server)}"


def _socket_path(sock_dir):
    """A new socket's path in sock_dir, named as go-plugin's Go servers
    name theirs: "plugin" and ten random characters (the host keeps room
    for that name within a socket path's 104 bytes)."""
    return os.path.join(sock_dir, "plugin" + secrets.token_hex(5))


def _listen_tcp(server):
    """Binds a loopback port, within PLUGIN_MIN_PORT..PLUGIN_MAX_PORT when
    the host sets them."""
    lo, hi = os.environ.get("PLUGIN_MIN_PORT"), os.environ.get("PLUGIN_MAX_PORT")
    if lo and hi:
        for port in range(int(lo), int(hi) + 1):
            if not _free(port):
                continue  # gRPC would log a bind error to stderr (the run log)
            try:
                if server.add_insecure_port(f"127.0.0.1:{port}"):
                    return port
            except RuntimeError:
                continue
        _fail(f"no free port in {lo}..{hi}")
    return server.add_insecure_port("127.0.0.1:0")


def _free(port: int) -> bool:
    """Whether a loopback port can be bound now (another process may still
    take it before gRPC does; the bind then fails and the scan goes on)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        probe.bind(("127.0.0.1", port))
        return True
    except OSError:
        return False
    finally:
        probe.close()


def _watch_parent(stop):
    """Stops the plugin when the host process goes away without telling it."""
    parent = os.getppid()

    def watch():
        while not stop.wait(1.0):
            if os.getppid() != parent:
                stop.set()

    threading.Thread(target=watch, daemon=True).start()


def _new_server(workers=None):
    """A gRPC server for one plugin process, with the message bounds of the
    Go SDK."""
    return grpc.server(
        futures.ThreadPoolExecutor(max_workers=workers or 4 * (os.cpu_count() or 1)),
        options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_SIZE),
            ("grpc.max_send_message_length", MAX_MESSAGE_SIZE),
            # gRPC sets SO_REUSEPORT by default, so two plugins scanning the
            # host's PLUGIN_MIN_PORT..PLUGIN_MAX_PORT would both bind its
            # first port and the kernel would hand the host's calls to
            # either process: a learner answered by another plugin ("no
            # parameter estimator", "no model"). One port, one process.
            ("grpc.so_reuseport", 0),
        ],
    )


def serve(learner, cache_bytes=dataset.DEFAULT_CACHE_BYTES, workers=None):
    """Serves learner until the host shuts the plugin down. It is the whole
    body of a plugin's main.

    cache_bytes bounds the uploaded datasets kept; workers bounds the calls
    served at once (default: 4 per CPU).
    """
    _check_environment()
    # Interrupts reach the whole process group; the host decides when its
    # plugins stop (as go-plugin's Go servers do).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    stop = threading.Event()
    server = _new_server(workers)
    health_pb2_grpc.add_HealthServicer_to_server(_Health(), server)
    ctl_grpc.add_GRPCControllerServicer_to_server(_Controller(stop), server)
    pb_grpc.add_LearnerServiceServicer_to_server(LearnerService(learner, cache_bytes), server)
    network, address = _listen(server)
    server.start()
    sys.stdout.write(f"{CORE_PROTOCOL_VERSION}|{PROTOCOL_VERSION}|{network}|{address}|grpc\n")
    sys.stdout.flush()
    # Whatever the learner's libraries print goes to stderr (the host's
    # log), never into the handshake channel.
    os.dup2(2, 1)
    _watch_parent(stop)
    stop.wait()
    server.stop(grace=1).wait()
    if network == "unix":
        try:
            os.unlink(address)
        except OSError:
            pass  # the host removes its socket directory in any case
