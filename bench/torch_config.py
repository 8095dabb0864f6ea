"""What the running PyTorch computes with: its build configuration, its threads, the BLAS
library its matmuls call and the oneDNN it loaded.

Debian's PyTorch calls whatever library provides libblas.so.3 (an alternative: the reference
BLAS of the libblas3 package, OpenBLAS, BLIS, ATLAS...) for its f32 matmuls. On the reference
BLAS, torch.matmul is some 30x slower than on OpenBLAS, so a comparison against it would be
meaningless; blas_info()["reference"] lets the benchmark scripts refuse it.

The BLAS is found the way the process itself finds it: the address that `sgemm_` resolves to
in libtorch_cpu's own link scope, its file (dladdr), and the Debian package that owns that
file (dpkg-query -S). Linux (/proc/self/maps) and glibc only, like the rest of bench/.
"""
import ctypes
import os
import re
import subprocess

import torch

# Debian packages that provide libblas.so.3, and what they are.
BLAS_PACKAGES = {
    "libblas3": "reference BLAS (netlib)",
    "libopenblas0-pthread": "OpenBLAS (pthreads)",
    "libopenblas0-openmp": "OpenBLAS (OpenMP)",
    "libopenblas0-serial": "OpenBLAS (single-threaded)",
    "libblis4-pthread": "BLIS (pthreads)",
    "libblis4-openmp": "BLIS (OpenMP)",
    "libblis4-serial": "BLIS (single-threaded)",
    "libatlas3-base": "ATLAS",
    "libmkl-rt": "Intel MKL",
}
REFERENCE_BLAS_PACKAGE = "libblas3"
# What scripts/bench_setup.sh installs; named in the refusal message.
FAST_BLAS_PACKAGE = "libopenblas0-pthread"

_MAPPED_LIBRARY = re.compile(r"lib(blas|lapack|openblas|blis|atlas|mkl|dnnl|torch_cpu)")


class _DlInfo(ctypes.Structure):
    _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]


def mapped_libraries():
    """The BLAS, LAPACK, oneDNN and libtorch_cpu files mapped into this process."""
    paths = []
    with open("/proc/self/maps") as f:
        for line in f:
            fields = line.split(maxsplit=5)
            if len(fields) == 6 and fields[5].startswith("/"):
                path = fields[5].strip()
                if _MAPPED_LIBRARY.search(os.path.basename(path)) and path not in paths:
                    paths.append(path)
    return paths


def debian_package(path):
    """The Debian package owning the file at path (or at what it links to), or None."""
    for candidate in dict.fromkeys([path, os.path.realpath(path)]):
        try:
            out = subprocess.run(["dpkg-query", "-S", candidate], capture_output=True,
                                 text=True, timeout=30)
        except (OSError, subprocess.SubprocessError):
            return None
        if out.returncode == 0 and ":" in out.stdout:
            # "libblas3:amd64: /usr/lib/x86_64-linux-gnu/blas/libblas.so.3.11.0"
            return out.stdout.split(":", 1)[0].strip()
    return None


def _sgemm_file(torch_cpu_path):
    """The file whose sgemm_ libtorch_cpu's link scope resolves to, or None."""
    try:
        lib = ctypes.CDLL(torch_cpu_path, mode=os.RTLD_NOLOAD | os.RTLD_LAZY)
        address = ctypes.cast(lib.sgemm_, ctypes.c_void_p).value
        dladdr = ctypes.CDLL("libc.so.6").dladdr
        dladdr.argtypes = [ctypes.c_void_p, ctypes.POINTER(_DlInfo)]
        info = _DlInfo()
        if not dladdr(address, ctypes.byref(info)) or not info.dli_fname:
            return None
        return info.dli_fname.decode()
    except (OSError, AttributeError):
        return None


def _openblas_details(path):
    """OpenBLAS's own account of its build, core and threads, if path is (or links) it."""
    try:
        lib = ctypes.CDLL(path, mode=os.RTLD_NOLOAD | os.RTLD_LAZY)
        get_config, get_corename = lib.openblas_get_config, lib.openblas_get_corename
    except (OSError, AttributeError):
        return None
    get_config.restype = get_corename.restype = ctypes.c_char_p
    parallel = {0: "sequential", 1: "pthreads", 2: "OpenMP"}.get(
        lib.openblas_get_parallel(), "unknown threading")
    return (f"{get_config().decode()}; core {get_corename().decode()}, {parallel}, "
            f"{lib.openblas_get_num_threads()} threads")


def blas_info():
    """Which BLAS PyTorch's matmuls run on, as a JSON-ready dict:
    file       the library file that provides sgemm_ to libtorch_cpu (None if not found)
    package    the Debian package owning it (None if dpkg does not know it)
    name       what it is (BLAS_PACKAGES), with OpenBLAS's own build details when it is one
    reference  True on the reference BLAS, False on another, None when it cannot be told
    libblas_so_3  the libblas.so.3 files mapped into the process
    mapped     every BLAS/LAPACK file mapped into the process
    """
    mapped = mapped_libraries()
    torch_cpu = next((p for p in mapped if "libtorch_cpu" in os.path.basename(p)), None)
    blas_files = [p for p in mapped
                  if not re.search(r"lib(dnnl|torch_cpu)", os.path.basename(p))]
    sgemm = _sgemm_file(torch_cpu) if torch_cpu else None
    package = debian_package(sgemm) if sgemm else None
    name = BLAS_PACKAGES.get(package) if package else None
    details = _openblas_details(sgemm) if sgemm else None
    if name is None:
        name = ("OpenBLAS" if details else
                f"unknown ({package or 'file of no Debian package'})" if sgemm else
                "not found (libtorch_cpu does not resolve sgemm_)")
    if package == REFERENCE_BLAS_PACKAGE:
        reference = True
    elif package is not None or details is not None:
        reference = False
    else:
        reference = None
    return {"file": os.path.realpath(sgemm) if sgemm else None, "package": package,
            "name": name, "details": details, "reference": reference,
            "libblas_so_3": [p for p in blas_files if "libblas.so.3" in p],
            "mapped": blas_files}


def onednn_info():
    """The oneDNN (MKL-DNN) PyTorch was built with and the file it loaded, as a dict."""
    version = re.search(r"MKL-DNN v([0-9.]+)", torch.__config__.show())
    return {"available": torch.backends.mkldnn.is_available(),
            "version": version.group(1) if version else None,
            "mapped": [p for p in mapped_libraries() if "libdnnl" in os.path.basename(p)]}


def build_config():
    """torch.__config__.show() without the compiler flags (one very long, uninformative
    line here), then torch.__config__.parallel_info()."""
    show = re.sub(r"CXX_FLAGS=.*?, (?=[A-Z_]+=)", "", torch.__config__.show())
    return show.rstrip() + "\n\n" + torch.__config__.parallel_info().rstrip()


def blas_summary(blas):
    text = blas["name"]
    if blas["package"]:
        text += f" [{blas['package']}]"
    if blas["file"]:
        text += f" from {blas['file']}"
    return text


def reference_blas_message(blas):
    """Why the benchmark refuses to compare against this PyTorch, and what to install."""
    return (f"PyTorch runs its matmuls on the reference BLAS ({blas['file']}, package "
            f"{REFERENCE_BLAS_PACKAGE}), some 30x slower than an optimized BLAS, so ratios "
            f"against it would flatter plugrt. Run scripts/bench_setup.sh, which installs "
            f"{FAST_BLAS_PACKAGE} and selects it for libblas.so.3 and liblapack.so.3 (see "
            f"`update-alternatives --display libblas.so.3-x86_64-linux-gnu`).")
