"""A real reverse proxy for tests: Debian's nginx on 127.0.0.1 in front of a class server.

`nginx_proxy(upstream_port, folder)` writes a configuration in ``folder`` (its
pid file, logs and temporary files all there too), starts ``nginx -g 'daemon
off;'`` as a subprocess of the current user on a free port, waits until that
port answers, yields the port and stops nginx afterwards. The configuration is
the one docs/school-it.md gives a school's IT, less TLS: it passes HTTP and the
WebSocket upgrade (``Upgrade`` and ``Connection``, nginx's "WebSocket proxying"),
and tells the server who the client is (``X-Forwarded-For``, ``X-Real-IP``) and
how it came (``X-Forwarded-Proto``).

`NGINX` is where Debian installs it (``.ci/run`` installs the package).
"""

from __future__ import annotations

import getpass
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from serving import free_port, listening, server_process

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

CONFIG = """\
worker_processes 1;
{user}
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/client_body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;

    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      close;
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://127.0.0.1:{upstream};
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $http_host;
            proxy_set_header X-Real-IP $remote_addr;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_read_timeout 1h;
        }}
    }}
}}
"""


def nginx_config(folder: Path, port: int, upstream: int) -> str:
    # as root, nginx's workers would become "nobody", who may not write in folder
    user = f"user {getpass.getuser()};" if os.geteuid() == 0 else ""
    return CONFIG.format(folder=folder, port=port, upstream=upstream, user=user)


@contextmanager
def nginx_proxy(upstream: int, folder: Path, port: int | None = None) -> Iterator[int]:
    """nginx on 127.0.0.1:``port`` (None: a free one) in front of 127.0.0.1:``upstream``;
    yields its port."""
    folder.mkdir(parents=True, exist_ok=True)
    port = port or free_port()
    conf = folder / "nginx.conf"
    conf.write_text(nginx_config(folder, port, upstream))
    cmd = [NGINX, "-p", str(folder), "-c", str(conf), "-e", str(folder / "error.log")]
    with server_process(
        [*cmd, "-g", "daemon off;"],
        folder / "nginx.out",
        up=lambda: listening(port),
        what="nginx",
        timeout=20,
    ):
        yield port
