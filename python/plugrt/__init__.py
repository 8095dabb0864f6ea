"""plugrt from Python: PJRT plugins, devices, buffers and executables.

The classes come from the C++ extension ``plugrt._plugrt``, built over
plugrt's C++ client; this file adds the process-wide default client and
``from_dlpack``.
"""

import threading as _threading

from plugrt._plugrt import (  # noqa: F401  (re-exported)
    PJRT_API_MAJOR,
    PJRT_API_MINOR,
    Buffer,
    Client,
    Device,
    Error,
    ErrorCode,
    Executable,
    Execution,
    Memory,
    Plugin,
    ProfilerSession,
    default_plugin_path,
    load_plugin,
)

_default_client = None
_default_lock = _threading.Lock()


def default_client():
    """The process's client over the built-in CPU plugin, made on first use."""
    global _default_client
    with _default_lock:
        if _default_client is None:
            _default_client = Client()
        return _default_client


def devices():
    """The default client's devices."""
    return default_client().devices()


def buffer(array, device=None, *, copy=None):
    """``array`` on ``device`` (default: the default client's first device)."""
    client = device.client if device is not None else default_client()
    return client.buffer(array, device, copy=copy)


def from_dlpack(source, device=None):
    """A Buffer sharing ``source``'s memory (any object with ``__dlpack__``).

    ``device`` picks the client and device; default: the default client's
    first device. Dense CPU tensors are shared, anything else is copied.
    """
    client = device.client if device is not None else default_client()
    return client.from_dlpack(source, device)


def compile(program, client=None, **options):  # noqa: A001  (the natural name)
    """Compiles ``program`` on ``client`` (default: the default client)."""
    return (client or default_client()).compile(program, **options)


class profile:
    """Profiles what runs inside a ``with`` block and writes it out at the end.

    ``path`` gets a Chrome trace (open it in ui.perfetto.dev or
    chrome://tracing) and a text summary beside it (``trace.json`` ->
    ``trace.summary.txt``), whose text is then ``.summary``. The plugin's
    kernels are recorded through PJRT's profiler extension (the built-in CPU
    plugin has it); eager ops and client calls by the client itself.
    ``client``: whose plugin to profile (default: the default client).
    ``gflops`` / ``gbps``: the machine's ceilings, for the summary's ratios.

        with plugrt.profile("trace.json") as p:
            executable(x)
        print(p.summary)
    """

    def __init__(self, path, client=None, *, gflops=0.0, gbps=0.0):
        self.path = str(path)
        self.summary = None
        self._client = client
        self._ceilings = (float(gflops), float(gbps))
        self._session = None

    def __enter__(self):
        client = self._client or default_client()
        self._session = ProfilerSession(client.plugin)
        return self

    def __exit__(self, *exc):
        session, self._session = self._session, None
        session.stop()
        self.summary = session.write(self.path, *self._ceilings)
        return False


__all__ = [
    "Buffer", "Client", "Device", "Error", "ErrorCode", "Executable", "Execution",
    "Memory", "Plugin", "PJRT_API_MAJOR", "PJRT_API_MINOR", "ProfilerSession", "buffer",
    "compile", "default_client", "default_plugin_path", "devices", "from_dlpack", "load_plugin",
    "profile",
]
