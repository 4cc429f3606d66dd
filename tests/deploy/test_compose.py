"""compose.yaml, read with PyYAML: the referee wired to the Redis service by REDIS_URL, both health-checked, the
referee started only once Redis is healthy, Redis bounded and without persistence, the referee on a read-only
root with a tmpfs /tmp, and its settings defaulting to the same values as the Kubernetes ConfigMap."""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from service.api.config import Settings

from .manifests import K8S, compose, compose_environment, duration_seconds, find, gunicorn_settings, healthcheck, \
    interpolate, kustomize, parse_dockerfile


@pytest.fixture(scope="module")
def services():
    document = compose()
    assert set(document["services"]) == {"referee", "redis"}
    return document["services"]


def test_redis_url_points_at_the_redis_service(services):
    env = compose_environment(services["referee"])
    url = urlsplit(env["REDIS_URL"])
    assert url.scheme == "redis" and url.hostname == "redis" and (url.port or 6379) == 6379
    settings = Settings.load(environ=env)
    assert settings.REDIS_CLUSTER is False
    # no storage of its own: the rate-limit counters live in that Redis too, shared by every worker
    assert settings.RATE_LIMIT_STORAGE == ""


def test_both_services_are_health_checked(services):
    for name, service in services.items():
        check = service.get("healthcheck")
        assert check and check["test"][0] in ("CMD", "CMD-SHELL"), f"{name} has no health check"
        assert not check.get("disable")
        for key in ("interval", "timeout"):
            assert duration_seconds(check[key]) > 0
    assert services["redis"]["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    # the referee's check is the image's own HEALTHCHECK (python: the slim image has no curl)
    _, image_check = healthcheck(parse_dockerfile().final.last("HEALTHCHECK"))
    assert services["referee"]["healthcheck"]["test"] == ["CMD", *image_check]


def test_referee_waits_for_a_healthy_redis(services):
    assert services["referee"]["depends_on"] == {"redis": {"condition": "service_healthy"}}


def test_redis_is_a_bounded_cache_without_persistence(services):
    redis = services["redis"]
    assert redis["image"] == "redis:7-alpine"
    command = redis["command"]
    assert isinstance(command, list) and command[0] == "redis-server"
    assert command[command.index("--maxmemory") + 1] == "256mb"
    assert command[command.index("--maxmemory-policy") + 1] == "allkeys-lru"
    assert command[command.index("--save") + 1] == "", "RDB snapshots off"
    assert command[command.index("--appendonly") + 1] == "no", "AOF off"
    assert not redis.get("volumes"), "a cache keeps nothing on disk"
    assert not redis.get("ports"), "Redis is reachable only by the referee, on the compose network"


def test_referee_runs_read_only_with_a_tmpfs_tmp(services):
    referee = services["referee"]
    assert referee["build"] in (".", {"context": "."})
    assert referee["read_only"] is True
    assert any(entry.split(":")[0] == "/tmp" for entry in referee["tmpfs"])
    env = compose_environment(referee)
    assert env["PROMETHEUS_MULTIPROC_DIR"].startswith("/tmp/")
    assert "ALL" in referee.get("cap_drop", [])
    ports = [interpolate(port) for port in referee["ports"]]
    assert ports and all(port.endswith(":8000") for port in ports)


def test_stop_grace_period_outlasts_gunicorns_graceful_timeout(services, tmp_path):
    env = compose_environment(services["referee"])
    graceful = gunicorn_settings(env, tmp_path / "metrics")["graceful_timeout"]
    assert duration_seconds(services["referee"]["stop_grace_period"]) > graceful, \
        "docker's default 10 s would SIGKILL gunicorn in the middle of its graceful shutdown"


def test_settings_default_like_the_kubernetes_configmap(services):
    """Unset in the shell, compose's ${VAR:-default} values are the ConfigMap's (REDIS_URL and FORWARDED_PROXIES
    aside)."""
    env = compose_environment(services["referee"], environ={})
    config = find(kustomize(K8S / "redis"), "ConfigMap")["data"]
    assert set(env) == set(config)
    for name, value in config.items():
        if name not in ("REDIS_URL", "FORWARDED_PROXIES"):
            assert env[name] == value, name
    # Kubernetes puts its Ingress in front (FORWARDED_PROXIES 1); compose publishes the referee's port itself, so
    # the TCP peer is the client, and a trusted X-Forwarded-For would let any client pick its own address.
    assert Settings.load(environ=env).FORWARDED_PROXIES == Settings().FORWARDED_PROXIES == 0
    assert Settings.load(environ=compose_environment(services["referee"],
                                                     environ={"FORWARDED_PROXIES": "1"})).FORWARDED_PROXIES == 1
    # an empty RATE_LIMIT in the shell (rate limiting off) must survive the interpolation
    assert compose_environment(services["referee"], environ={"RATE_LIMIT": ""})["RATE_LIMIT"] == ""
    assert Settings.load(environ=compose_environment(services["referee"], environ={"RATE_LIMIT": ""})).RATE_LIMIT == ""
