#!/usr/bin/env python3
"""Added network latency for simulated hosts whose kernel has no netem.

Runs inside one simulated host's network namespace (scripts/netns_hosts.sh
delay starts it). An iptables rule there redirects the host's outgoing TCP
connections to this relay on 127.0.0.1:PORT; the relay reads where each was
going (SO_ORIGINAL_DST), connects there itself (its sockets carry a firewall
mark the rule lets through) and passes the bytes on both ways, each chunk
held back until DELAY after it arrived. Order is kept, and at most
--window bytes wait per direction (the sender is held up past that, as a
full link would), so a connection sees DELAY added each way on top of what
the link costs. Connections that exist before the rule stay direct.

Usage: delay_relay.py --port PORT --delay-ms MS --mark MARK [--window BYTES]
"""
import argparse
import collections
import socket
import struct
import sys
import threading
import time

SO_ORIGINAL_DST = 80  # linux/netfilter_ipv4.h
SO_MARK = 36


def original_destination(conn):
    raw = conn.getsockopt(socket.SOL_IP, SO_ORIGINAL_DST, 16)
    (port,) = struct.unpack_from("!H", raw, 2)
    return socket.inet_ntoa(raw[4:8]), port


class DelayedPipe:
    """Bytes from `src` to `dst`, each chunk sent `delay` seconds after it came."""

    def __init__(self, src, dst, delay, window):
        self.src, self.dst, self.delay, self.window = src, dst, delay, window
        self.queue = collections.deque()
        self.queued = 0
        self.ended = False
        self.cv = threading.Condition()

    def read(self):
        while True:
            try:
                data = self.src.recv(1 << 18)
            except OSError:
                data = b""
            with self.cv:
                if not data:
                    self.ended = True
                    self.cv.notify_all()
                    return
                while self.queued > self.window:
                    self.cv.wait()
                self.queue.append((time.monotonic() + self.delay, data))
                self.queued += len(data)
                self.cv.notify_all()

    def write(self):
        while True:
            with self.cv:
                while not self.queue and not self.ended:
                    self.cv.wait()
                if not self.queue:
                    break
                due, data = self.queue.popleft()
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            try:
                self.dst.sendall(data)
            except OSError:
                break
            finally:
                with self.cv:
                    self.queued -= len(data)
                    self.cv.notify_all()
        try:
            self.dst.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def serve_connection(client, delay, mark, window):
    try:
        target = original_destination(client)
        upstream = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        upstream.setsockopt(socket.SOL_SOCKET, SO_MARK, mark)
        upstream.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        upstream.connect(target)
    except OSError:
        client.close()
        return
    client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    threads = []
    for src, dst in ((client, upstream), (upstream, client)):
        pipe = DelayedPipe(src, dst, delay, window)
        for body in (pipe.read, pipe.write):
            threads.append(threading.Thread(target=body, daemon=True))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    client.close()
    upstream.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--delay-ms", type=float, required=True)
    parser.add_argument("--mark", type=lambda s: int(s, 0), required=True)
    parser.add_argument("--window", type=int, default=16 << 20)
    args = parser.parse_args()
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", args.port))
    listener.listen(128)
    print(f"delay_relay: {args.delay_ms} ms each way on 127.0.0.1:{args.port}", flush=True)
    while True:
        client, _ = listener.accept()
        threading.Thread(target=serve_connection,
                         args=(client, args.delay_ms / 1e3, args.mark, args.window),
                         daemon=True).start()


if __name__ == "__main__":
    sys.exit(main())
