"""The Kubernetes manifests: every document (and every overlay as kustomize renders it) validates strictly against
the Kubernetes JSON schemas, offline (the kubernetes-validate package ships them); the pieces fit together
(selectors, ports, ConfigMap, probes, grace period vs gunicorn's graceful_timeout, the image's user, the Ingress's
backend and rate limit); and the ConfigMap carries every setting with the service's own defaults, but for
FORWARDED_PROXIES, which counts the Ingress in front."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import kubernetes_validate
import limits
import pytest

from service.api import create_app
from service.api.config import Settings

from .manifests import K8S, ROOT, env_pairs, find, find_all, gunicorn_settings, kustomize, load_documents, \
    parse_dockerfile, selects

# the oldest and the newest Kubernetes release whose schemas the installed package ships
VERSIONS = sorted({kubernetes_validate.utils.all_versions()[0], kubernetes_validate.utils.latest_version()})
MANIFESTS = sorted(path for path in K8S.rglob("*.yaml") if path.name != "kustomization.yaml")
KUSTOMIZATIONS = sorted(path.parent for path in K8S.rglob("kustomization.yaml"))
OVERLAYS = {"base": K8S, "redis": K8S / "redis", "redis-cluster": K8S / "redis-cluster"}
NOT_KUBERNETES = {"Kustomization"}
APP = "tower-referee"
REDIS = "tower-referee-redis"
INGRESS = K8S / "ingress.yaml"
NGINX = "nginx.ingress.kubernetes.io/"
# ingress-nginx's rate-limiting annotations (its user guide, "Rate Limiting"); any other `limit-*` name is a typo
# the controller would ignore silently
NGINX_RATE_LIMITS = {"limit-connections", "limit-rps", "limit-rpm", "limit-burst-multiplier", "limit-rate-after",
                     "limit-rate", "limit-whitelist"}


def label(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.fixture(scope="module")
def rendered() -> dict[str, list[dict]]:
    return {name: kustomize(path) for name, path in OVERLAYS.items()}


@pytest.fixture(scope="module")
def base(rendered):
    return rendered["base"]


@pytest.fixture(scope="module")
def deployment(base):
    return find(base, "Deployment", APP)


@pytest.fixture(scope="module")
def container(deployment):
    containers = deployment["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1
    return containers[0]


def validate(doc: dict, version: str, where: str) -> None:
    problem = None
    try:
        kubernetes_validate.validate(doc, version, strict=True)
    except kubernetes_validate.ValidationError as error:
        path = ".".join(str(item) for item in error.path)
        problem = f"not valid Kubernetes {error.version}: {path}: {error.message}"
    except kubernetes_validate.SchemaNotFoundError as error:
        problem = error.message
    if problem:  # outside the except: no chained schema dump in the report
        pytest.fail(f"{where}: {doc['kind']}/{doc['metadata']['name']}: {problem}", pytrace=False)


def test_the_schemas_are_shipped_offline():
    assert VERSIONS and all(version.count(".") >= 1 for version in VERSIONS)
    assert MANIFESTS, "no manifests found"


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("path", MANIFESTS, ids=label)
def test_every_manifest_is_valid_kubernetes(path, version):
    documents = load_documents(path)
    assert documents, f"{label(path)} holds no document"
    for doc in documents:
        if "$patch" in doc or path.name.endswith("-patch.yaml"):
            continue  # a patch fragment: validated as part of its rendered overlay below
        assert doc.get("kind") not in NOT_KUBERNETES
        validate(doc, version, label(path))


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("overlay", sorted(OVERLAYS))
def test_every_rendered_overlay_is_valid_kubernetes(rendered, overlay, version):
    for doc in rendered[overlay]:
        validate(doc, version, f"kustomize build {label(OVERLAYS[overlay])}")


def test_every_manifest_belongs_to_a_kustomization():
    used: set[Path] = set()
    for directory in KUSTOMIZATIONS:
        kustomization = load_documents(directory / "kustomization.yaml")[0]
        used |= {(directory / item).resolve() for item in kustomization.get("resources", [])}
        used |= {(directory / item["path"]).resolve() for item in kustomization.get("patches", []) if "path" in item}
    orphans = [label(path) for path in MANIFESTS if path.resolve() not in used]
    assert not orphans, f"manifests no kustomization applies: {orphans}"
    assert set(OVERLAYS.values()) <= set(KUSTOMIZATIONS)


def test_deployment_rollout_replicas_and_probes(deployment, container):
    spec = deployment["spec"]
    # the HPA owns the replica count (at least 2); a fixed `replicas` would undo its scaling on every apply
    assert "replicas" not in spec
    assert spec["strategy"] == {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 1}}
    pod_labels = spec["template"]["metadata"]["labels"]
    assert selects(spec["selector"]["matchLabels"], pod_labels)
    ports = {port["name"]: port["containerPort"] for port in container["ports"]}
    assert ports == {"http": 8000}
    probes = {name: container[name]["httpGet"] for name in ("startupProbe", "livenessProbe", "readinessProbe")}
    assert probes["livenessProbe"]["path"] == "/healthz", "liveness must not depend on Redis"
    assert probes["readinessProbe"]["path"] == "/readyz"
    assert probes["startupProbe"]["path"] == "/healthz"
    assert all(probe["port"] in ("http", 8000) for probe in probes.values())
    liveness = container["livenessProbe"]
    assert liveness["periodSeconds"] * liveness["failureThreshold"] >= 30, "a busy pod must not be killed quickly"


def test_deployment_resources(container):
    resources = container["resources"]
    assert {"cpu", "memory"} <= set(resources["requests"]) and {"cpu", "memory"} <= set(resources["limits"])


def test_deployment_is_locked_down(deployment, container):
    pod = deployment["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    security = container["securityContext"]
    assert security["runAsNonRoot"] is True
    assert security["readOnlyRootFilesystem"] is True
    assert security["allowPrivilegeEscalation"] is False
    assert security["capabilities"]["drop"] == ["ALL"] and "add" not in security["capabilities"]
    assert pod.get("automountServiceAccountToken") is False
    # the image's numeric user is the one the pod declares
    user = parse_dockerfile().final.last("USER").args.split(":")
    assert pod["securityContext"]["runAsUser"] == int(user[0])
    if len(user) > 1:
        assert pod["securityContext"]["runAsGroup"] == int(user[1])


def test_writable_paths_are_memory_empty_dirs(deployment, container, base):
    volumes = {volume["name"]: volume for volume in deployment["spec"]["template"]["spec"]["volumes"]}
    mounts = {mount["mountPath"]: mount["name"] for mount in container["volumeMounts"]}
    config = find(base, "ConfigMap")["data"]
    for path in ("/tmp", config["PROMETHEUS_MULTIPROC_DIR"]):
        assert path in mounts, f"{path} is not mounted (the root filesystem is read-only)"
        assert volumes[mounts[path]]["emptyDir"]["medium"] == "Memory"
    assert set(mounts.values()) <= set(volumes)
    image_env = dict(pair for i in parse_dockerfile().final.all("ENV") for pair in env_pairs(i))
    assert config["PROMETHEUS_MULTIPROC_DIR"] == image_env["PROMETHEUS_MULTIPROC_DIR"]


def test_env_comes_from_the_configmap(deployment, container, base):
    config = find(base, "ConfigMap")
    sources = container["envFrom"]
    assert sources[0] == {"configMapRef": {"name": config["metadata"]["name"]}}
    # optional secrets come after the ConfigMap, so that they override it
    assert all(source.get("secretRef", {}).get("optional") is True for source in sources[1:])
    assert "env" not in container or all("valueFrom" in item for item in container["env"])


def test_termination_outlasts_the_pre_stop_sleep_and_gunicorns_graceful_timeout(deployment, container, base,
                                                                                tmp_path):
    config = find(base, "ConfigMap")["data"]
    settings = gunicorn_settings(config, tmp_path / "metrics")
    pre_stop = container["lifecycle"]["preStop"]
    if "sleep" in pre_stop:
        sleep = pre_stop["sleep"]["seconds"]
    else:
        command = pre_stop["exec"]["command"]
        assert command[0] in ("sleep", "/bin/sleep", "/usr/bin/sleep"), command
        sleep = int(command[1])
    assert sleep >= 3, "the endpoint removal needs a few seconds to reach every proxy"
    grace = deployment["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
    assert settings["graceful_timeout"] == 20
    assert grace > sleep + settings["graceful_timeout"], \
        f"terminationGracePeriodSeconds {grace} <= preStop {sleep} s + graceful_timeout " \
        f"{settings['graceful_timeout']} s"
    assert settings["workers"] == int(config["WEB_CONCURRENCY"])
    # each recycled worker would leave its metric files in the memory-backed emptyDir, without bound
    assert settings["max_requests"] == 0
    assert settings["bind"] == "0.0.0.0:8000"


def test_service_fronts_the_deployment(deployment, container, base):
    service = find(base, "Service", APP)
    spec = service["spec"]
    assert spec["type"] == "ClusterIP"
    assert selects(spec["selector"], deployment["spec"]["template"]["metadata"]["labels"])
    (port,) = spec["ports"]
    named = {item["name"]: item["containerPort"] for item in container["ports"]}
    assert port["port"] == 80 and named.get(port["targetPort"], port["targetPort"]) == 8000
    annotations = service["metadata"]["annotations"]
    assert annotations["prometheus.io/scrape"] == "true"
    assert annotations["prometheus.io/port"] == "8000" and annotations["prometheus.io/path"] == "/metrics"


def test_autoscaler_scales_the_deployment_on_cpu(deployment, container, base):
    hpa = find(base, "HorizontalPodAutoscaler", APP)
    assert hpa["apiVersion"] == "autoscaling/v2"
    spec = hpa["spec"]
    assert spec["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": APP}
    assert 2 <= spec["minReplicas"] < spec["maxReplicas"], "at least 2 replicas, always"
    (metric,) = spec["metrics"]
    assert metric["type"] == "Resource" and metric["resource"]["name"] == "cpu"
    assert metric["resource"]["target"]["type"] == "Utilization"
    assert 0 < metric["resource"]["target"]["averageUtilization"] <= 100
    assert "cpu" in container["resources"]["requests"], "CPU utilisation is measured against the request"


def test_disruption_budget_covers_the_pods(deployment, base):
    pdb = find(base, "PodDisruptionBudget", APP)
    assert pdb["apiVersion"] == "policy/v1"
    assert selects(pdb["spec"]["selector"]["matchLabels"], deployment["spec"]["template"]["metadata"]["labels"])
    minimum = find(base, "HorizontalPodAutoscaler")["spec"]["minReplicas"]
    if "maxUnavailable" in pdb["spec"]:
        assert 1 <= pdb["spec"]["maxUnavailable"] < minimum
    else:
        assert pdb["spec"]["minAvailable"] < minimum, "a budget that allows no eviction blocks node drains"


def test_configmap_holds_every_setting_with_the_service_defaults(base):
    data = find(base, "ConfigMap")["data"]
    names = {item.name for item in dataclasses.fields(Settings)} | {"WEB_CONCURRENCY", "GUNICORN_MAX_REQUESTS"}
    assert set(data) == names
    assert all(isinstance(value, str) for value in data.values()), "ConfigMap values must be strings"
    loaded = Settings.load(environ=data)
    # The one departure from the defaults: the base ships an Ingress, so every request reaches a pod through the
    # ingress controller, and the client is the address it names in X-Forwarded-For (the service's default, 0,
    # would give every client the controller's address and one shared budget).
    assert loaded.FORWARDED_PROXIES == 1
    assert loaded == Settings(PROMETHEUS_MULTIPROC_DIR=data["PROMETHEUS_MULTIPROC_DIR"], FORWARDED_PROXIES=1), \
        "the base ConfigMap should spell out the defaults (REDIS_URL empty: the in-process cache)"
    assert int(data["WEB_CONCURRENCY"]) >= 1


def test_small_install_runs_one_bounded_redis(rendered):
    documents = rendered["redis"]
    config = find(documents, "ConfigMap")["data"]
    settings = Settings.load(environ=config)
    service = find(documents, "Service", REDIS)
    redis = find(documents, "Deployment", REDIS)
    assert settings.REDIS_URL == f"redis://{REDIS}:{service['spec']['ports'][0]['port']}/0"
    assert settings.REDIS_CLUSTER is False
    pod = redis["spec"]["template"]
    assert redis["spec"]["replicas"] == 1
    assert selects(service["spec"]["selector"], pod["metadata"]["labels"])
    assert selects(redis["spec"]["selector"]["matchLabels"], pod["metadata"]["labels"])
    app_pods = find(documents, "Deployment", APP)["spec"]["template"]["metadata"]["labels"]
    assert not selects(service["spec"]["selector"], app_pods), "the Redis Service would also pick referee pods"
    assert not selects(find(documents, "Service", APP)["spec"]["selector"], pod["metadata"]["labels"])
    (container,) = pod["spec"]["containers"]
    assert container["image"].startswith("redis:7")
    args = container["args"]
    assert args[args.index("--maxmemory") + 1] == "256mb"
    assert args[args.index("--maxmemory-policy") + 1] == "allkeys-lru"
    assert args[args.index("--save") + 1] == "" and args[args.index("--appendonly") + 1] == "no"
    limit = container["resources"]["limits"]["memory"]
    assert limit.endswith("Mi") and int(limit[:-2]) > 256, "the memory limit must exceed maxmemory"
    security = container["securityContext"]
    assert security["readOnlyRootFilesystem"] and not security["allowPrivilegeEscalation"]
    policy = find(documents, "NetworkPolicy")
    assert selects(policy["spec"]["podSelector"]["matchLabels"], pod["metadata"]["labels"])
    (rule,) = policy["spec"]["ingress"]
    assert selects(rule["from"][0]["podSelector"]["matchLabels"], app_pods)


def test_large_install_points_at_an_external_redis_cluster(rendered):
    documents = rendered["redis-cluster"]
    settings = Settings.load(environ=find(documents, "ConfigMap")["data"])
    assert settings.REDIS_CLUSTER is True
    assert settings.REDIS_URL and settings.REDIS_URL.startswith(("redis://", "rediss://"))
    assert REDIS not in settings.REDIS_URL
    assert not settings.REDIS_URL.rstrip("/").rsplit(":", 1)[-1].count("/"), "a cluster has no database number"
    assert [doc["metadata"]["name"] for doc in find_all(documents, "Deployment")] == [APP]
    assert (K8S / "redis-cluster" / "README.md").is_file()
    # everything but the ConfigMap is the base, unchanged
    base = {(doc["kind"], doc["metadata"]["name"]): doc for doc in kustomize(K8S) if doc["kind"] != "ConfigMap"}
    assert base == {(doc["kind"], doc["metadata"]["name"]): doc for doc in documents if doc["kind"] != "ConfigMap"}


def test_image_name_and_port_match_the_dockerfile(container):
    assert container["image"].split(":")[0].rsplit("/", 1)[-1] == "tower-referee"
    assert [i.args for i in parse_dockerfile().final.all("EXPOSE")] == [str(container["ports"][0]["containerPort"])]


# ------------------------------------------------------------------------------------------------------ Ingress

@pytest.fixture(scope="module")
def ingress(base):
    return find(base, "Ingress", APP)


@pytest.mark.parametrize("version", VERSIONS)
def test_the_ingress_is_valid_kubernetes(version):
    assert INGRESS in MANIFESTS
    (doc,) = load_documents(INGRESS)
    assert doc["apiVersion"] == "networking.k8s.io/v1" and doc["kind"] == "Ingress"
    validate(doc, version, label(INGRESS))


def test_the_ingress_routes_every_path_to_the_services_port(ingress, base):
    spec = ingress["spec"]
    assert spec["ingressClassName"] == "nginx", "the annotations below are ingress-nginx's"
    service = find(base, "Service", APP)
    (service_port,) = service["spec"]["ports"]
    (rule,) = spec["rules"]
    assert rule["host"], "a host, even a placeholder, so that the Ingress does not claim every host of the controller"
    (path,) = rule["http"]["paths"]
    assert path["path"] == "/" and path["pathType"] == "Prefix"
    backend = path["backend"]["service"]
    assert backend["name"] == service["metadata"]["name"]
    assert backend["port"] in ({"name": service_port["name"]}, {"number": service_port["port"]})


def test_the_ingress_limits_each_client_at_the_services_rate(ingress, base):
    annotations = ingress["metadata"]["annotations"]
    limit_names = {key[len(NGINX):] for key in annotations if key.startswith(NGINX + "limit-")}
    assert limit_names <= NGINX_RATE_LIMITS, f"unknown to ingress-nginx: {sorted(limit_names - NGINX_RATE_LIMITS)}"
    assert all(isinstance(value, str) for value in annotations.values()), "annotation values must be strings"
    # RATE_LIMIT as the service reads it (the `limits` library's notation), brought to requests a minute
    (rate,) = limits.parse_many(find(base, "ConfigMap")["data"]["RATE_LIMIT"])  # one rate: one limit-rpm
    per_minute = rate.amount * 60 / rate.get_expiry()
    assert per_minute == int(per_minute), f"RATE_LIMIT {rate} is no whole number of requests a minute"
    assert int(annotations[NGINX + "limit-rpm"]) == per_minute
    assert NGINX + "limit-rps" not in annotations, "a second request limit would refuse below RATE_LIMIT's pace"
    # nginx admits a burst of limit-rpm x multiplier at once: at least a minute's budget, so that a client the
    # service would accept is not refused at the edge, and not much more, or a flood passes the edge whole
    multiplier = int(annotations[NGINX + "limit-burst-multiplier"])
    assert 1 <= multiplier <= 2
    assert int(annotations[NGINX + "limit-connections"]) >= 1


@pytest.mark.parametrize("overlay", sorted(OVERLAYS))
def test_forwarded_proxies_counts_the_ingress_wherever_it_is_installed(rendered, overlay):
    documents = rendered[overlay]
    settings = Settings.load(environ=find(documents, "ConfigMap")["data"])
    if find_all(documents, "Ingress"):
        assert settings.FORWARDED_PROXIES == 1, \
            f"{overlay}: behind the Ingress every client would share the controller's address and one budget"
    else:
        # with no proxy in front, a trusted X-Forwarded-For would let any client pick its own address
        assert settings.FORWARDED_PROXIES == 0, overlay


@pytest.mark.parametrize("trusted", ["configmap", "none"])
def test_behind_the_ingress_each_client_has_its_own_budget(base, trusted):
    """The app as the base ConfigMap configures it, reached the way the Ingress reaches it: every request from the
    controller's address, the client named in X-Forwarded-For. A budget of 2 instead of 1200 keeps it short."""
    config = {name: value for name, value in find(base, "ConfigMap")["data"].items()
              if name != "PROMETHEUS_MULTIPROC_DIR"}  # multiprocess metrics need gunicorn's directory
    if trusted == "none":
        config["FORWARDED_PROXIES"] = "0"
    app = create_app({**config, "RATE_LIMIT": "2 per minute", "LOG_LEVEL": "WARNING", "TESTING": True})
    client = app.test_client()
    controller = {"REMOTE_ADDR": "10.0.0.5"}

    def ask(address: str):
        return client.get("/v1/games", headers={"X-Forwarded-For": address}, environ_base=controller)

    first = [ask("203.0.113.7").status_code for _ in range(2)]
    refused = ask("203.0.113.7")
    other = ask("198.51.100.9")
    assert first == [200, 200] and refused.status_code == 429
    assert refused.mimetype == "application/problem+json" and int(refused.headers["Retry-After"]) > 0
    if trusted == "configmap":
        assert other.status_code == 200, "another client behind the same controller has a budget of its own"
    else:
        assert other.status_code == 429, "untrusted, the header is ignored: every client shares the controller's"
