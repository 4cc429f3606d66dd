# syntax=docker/dockerfile:1
# The referee's image. Stage 1 builds a virtualenv holding the project (a normal, non-editable install) and its
# dependencies; stage 2 is a clean slim Python with only that venv, the contract (openapi.yaml) and the gunicorn
# settings, run by an unprivileged user. It runs with a read-only root filesystem: only /tmp must be writable.
#
#   docker build -t tower-referee .
#   docker run --rm -p 8000:8000 --read-only --tmpfs /tmp tower-referee
#
# See deploy/README.md (compose for one machine, Kubernetes for many). tests/deploy parses this file and runs
# its CMD the way the container does.

ARG PYTHON_IMAGE=python:3.11-slim-bookworm

# ---------------------------------------------------------------------------------------------------------------
FROM ${PYTHON_IMAGE} AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH

WORKDIR /src
# Only what building the package needs (its metadata, the readme it names, the package itself), so that edits
# to tests, docs or deploy files do not invalidate this layer.
COPY pyproject.toml README.md ./
COPY service ./service
# Non-editable: the package is copied into the venv's site-packages (byte-compiled there, since the running
# container cannot write .pyc files), and /src is left behind with this stage.
RUN pip install . \
 && pip check

# ---------------------------------------------------------------------------------------------------------------
FROM ${PYTHON_IMAGE} AS runtime

LABEL org.opencontainers.image.title="tower-referee" \
      org.opencontainers.image.description="A stateless HTTP referee for tower-building board games" \
      org.opencontainers.image.licenses="MIT"

# HOST/PORT feed gunicorn's bind (deploy/gunicorn.conf.py). WEB_CONCURRENCY is set because gunicorn's default
# (2 x cpu_count()) counts the host's cores, not the container's CPU limit: set it to about 2 x the CPUs the
# container may use. The Prometheus multiprocess directory lives on /tmp (a tmpfs / emptyDir) and is emptied by
# the gunicorn config at every start. XDG_RUNTIME_DIR puts gunicorn's control socket (gunicorn >= 25.1) on /tmp
# too: its default, $HOME/.gunicorn/, is on the read-only root filesystem.
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    XDG_RUNTIME_DIR=/tmp \
    PYTHONUNBUFFERED=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    WEB_CONCURRENCY=2 \
    PROMETHEUS_MULTIPROC_DIR=/tmp/metrics

RUN groupadd --system --gid 10001 referee \
 && useradd --system --uid 10001 --gid referee --home-dir /app --no-create-home --shell /usr/sbin/nologin referee

WORKDIR /app
# Owned by root and not writable by the service user: the code and settings are immutable at run time.
COPY --from=build /opt/venv /opt/venv
# The service serves the committed contract from beside its package (service/api/docs.py: SPEC_PATH is the
# parent of the `service` package, i.e. the venv's site-packages in a non-editable install).
COPY openapi.yaml /opt/venv/lib/python3.11/site-packages/openapi.yaml
COPY deploy/gunicorn.conf.py deploy/gunicorn.conf.py

# Numeric, so that Kubernetes' runAsNonRoot can verify it.
USER 10001:10001
EXPOSE 8000
STOPSIGNAL SIGTERM

# No curl in the slim image: ask /healthz (liveness only; it never touches Redis) with the standard library.
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=2)"]

# Exec form: gunicorn is PID 1 and receives SIGTERM itself (graceful shutdown within graceful_timeout).
CMD ["gunicorn", "--config", "deploy/gunicorn.conf.py", "service.api:create_app()"]
