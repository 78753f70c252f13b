"""k8s/: each overlay renders with kustomize and validates against the Kubernetes schemas
(kubernetes-validate, offline, strict), and says what an operator relies on: probes,
resources, non-root read-only containers, autoscalers and disruption budgets for the three
services, Redis and PostgreSQL with volumes and passwords, the two Jobs, a Secret generated
from an uncommitted env file, and NetworkPolicies that let only the right pods in."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from tests.helpers.deployment import (
    CODE_VARIABLES,
    FORBIDDEN_VARIABLES,
    REPO,
    VERSION,
    entrypoint_roles,
)

OVERLAYS = ("dev", "prod")
#: The oldest Kubernetes the manifests are meant for, and the newest the schemas know.
KUBERNETES_VERSIONS = ("1.30.0", kubernetes_validate.latest_version())
SERVICES = ("uno-engine", "uno-worker", "uno-bot", "uno-webapp")
SECRET_KEYS = {
    "UNO_ENGINE_TOKEN",
    "UNO_TELEGRAM_TOKEN",
    "UNO_REDIS_PASSWORD",
    "UNO_POSTGRES_PASSWORD",
}
#: Helpers of the manifests: the passwords that $(...) puts into the URLs.
MANIFEST_VARIABLES = {"UNO_REDIS_PASSWORD", "UNO_POSTGRES_PASSWORD"}

Resource = dict[str, Any]


def kustomize_command() -> list[str]:
    if shutil.which("kustomize"):
        return ["kustomize", "build"]
    if shutil.which("kubectl"):
        return ["kubectl", "kustomize"]
    if os.environ.get("CI"):
        pytest.fail("CI needs kubectl or kustomize to render k8s/")
    pytest.skip("neither kustomize nor kubectl is installed")


def copy_of_k8s(tmp_path: Path, *, with_secrets: bool) -> Path:
    """k8s/ in a scratch folder, each overlay's secrets.env made from its example or absent."""
    root = tmp_path / "k8s"
    shutil.copytree(REPO / "k8s", root, ignore=shutil.ignore_patterns("secrets.env"))
    if with_secrets:
        for overlay in OVERLAYS:
            folder = root / "overlays" / overlay
            shutil.copy(folder / "secrets.env.example", folder / "secrets.env")
    return root


def build(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*kustomize_command(), str(folder)], capture_output=True, text=True)


@pytest.fixture(scope="module", params=OVERLAYS)
def rendered(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> list[Resource]:
    root = copy_of_k8s(tmp_path_factory.mktemp("k8s"), with_secrets=True)
    result = build(root / "overlays" / request.param)
    assert result.returncode == 0, result.stderr
    return [doc for doc in yaml.safe_load_all(result.stdout) if doc]


def of_kind(resources: list[Resource], kind: str) -> dict[str, Resource]:
    return {r["metadata"]["name"]: r for r in resources if r["kind"] == kind}


def workloads(resources: list[Resource]) -> Iterator[Resource]:
    for resource in resources:
        if resource["kind"] in {"Deployment", "StatefulSet", "Job"}:
            yield resource


def pod_labels(workload: Resource) -> dict[str, str]:
    labels: dict[str, str] = workload["spec"]["template"]["metadata"]["labels"]
    return labels


def containers(workload: Resource) -> list[Resource]:
    spec = workload["spec"]["template"]["spec"]
    found: list[Resource] = spec["containers"] + spec.get("initContainers", [])
    return found


# ------------------------------------------------------------------------------ rendering


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_every_resource_is_valid_for_kubernetes(rendered: list[Resource], version: str) -> None:
    for resource in rendered:
        kubernetes_validate.validate(resource, version, strict=True)


def test_the_validator_can_fail(rendered: list[Resource]) -> None:
    engine = of_kind(rendered, "Deployment")["uno-engine"]
    broken = yaml.safe_load(yaml.safe_dump(engine))
    broken["spec"]["template"]["spec"]["containers"][0]["livenessProbe"]["httpGet"]["paht"] = "/"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, KUBERNETES_VERSIONS[-1], strict=True)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_an_overlay_will_not_render_without_its_secrets_file(tmp_path: Path, overlay: str) -> None:
    root = copy_of_k8s(tmp_path, with_secrets=False)
    result = build(root / "overlays" / overlay)
    assert result.returncode != 0
    assert "secrets.env" in result.stderr


def test_no_secrets_file_is_committed() -> None:
    tracked = subprocess.run(
        ["git", "ls-files", "k8s"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    assert not [path for path in tracked if path.endswith("secrets.env")]
    assert "k8s/overlays/*/secrets.env" in (REPO / ".gitignore").read_text()


def test_the_secret_holds_every_token_and_password(rendered: list[Resource]) -> None:
    (secret,) = of_kind(rendered, "Secret").values()
    assert set(secret["data"]) >= SECRET_KEYS
    for workload in workloads(rendered):
        for container in containers(workload):
            for variable in container.get("env", []):
                ref = variable.get("valueFrom", {}).get("secretKeyRef")
                if ref:
                    assert ref["name"] == secret["metadata"]["name"]
                    assert ref["key"] in secret["data"] or ref.get("optional"), ref


# ------------------------------------------------------------------------------ workloads


def test_images_are_tagged_releases(rendered: list[Resource]) -> None:
    for workload in workloads(rendered):
        for container in containers(workload):
            image = container["image"]
            name, _, tag = image.rpartition(":")
            assert name and tag and tag != "latest" and "/" not in tag, image
            if name.endswith("uno-bot"):
                assert tag == VERSION, image


def test_the_three_services_are_deployments_with_probes_and_resources(
    rendered: list[Resource],
) -> None:
    deployments = of_kind(rendered, "Deployment")
    assert set(deployments) == set(SERVICES)
    roles = entrypoint_roles()
    for name in SERVICES:
        (container,) = containers(deployments[name])
        assert container["args"][0] in roles
        assert "livenessProbe" in container and "readinessProbe" in container, name
        resources = container["resources"]
        assert {"cpu", "memory"} <= set(resources["requests"]), name
        assert {"cpu", "memory"} <= set(resources["limits"]), name
        assert "replicas" not in deployments[name]["spec"], f"{name}: the HPA owns replicas"


def test_every_container_runs_unprivileged_on_a_read_only_filesystem(
    rendered: list[Resource],
) -> None:
    for workload in workloads(rendered):
        pod = workload["spec"]["template"]["spec"]
        assert pod["securityContext"]["runAsNonRoot"] is True, workload["metadata"]["name"]
        assert pod["automountServiceAccountToken"] is False
        for container in containers(workload):
            context = container["securityContext"]
            assert context["readOnlyRootFilesystem"] is True, container["name"]
            assert context["allowPrivilegeEscalation"] is False, container["name"]
            assert context["capabilities"]["drop"] == ["ALL"], container["name"]


def test_each_service_has_an_autoscaler_and_a_disruption_budget(
    rendered: list[Resource],
) -> None:
    deployments = of_kind(rendered, "Deployment")
    autoscalers = {
        hpa["spec"]["scaleTargetRef"]["name"]: hpa
        for hpa in of_kind(rendered, "HorizontalPodAutoscaler").values()
    }
    budgets = list(of_kind(rendered, "PodDisruptionBudget").values())
    for name in SERVICES:
        hpa = autoscalers[name]
        assert hpa["spec"]["scaleTargetRef"]["kind"] == "Deployment"
        assert 1 <= hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]
        labels = pod_labels(deployments[name])
        matching = [
            b for b in budgets if b["spec"]["selector"]["matchLabels"].items() <= labels.items()
        ]
        assert len(matching) == 1, name
    # Two bots polling one token would take each other's updates.
    assert autoscalers["uno-bot"]["spec"]["maxReplicas"] == 1
    assert deployments["uno-bot"]["spec"]["strategy"]["type"] == "Recreate"


def test_redis_and_postgres_keep_their_data_on_volumes_behind_passwords(
    rendered: list[Resource],
) -> None:
    stateful = of_kind(rendered, "StatefulSet")
    assert set(stateful) == {"uno-redis", "uno-postgres"}
    for workload in stateful.values():
        assert workload["spec"]["volumeClaimTemplates"], workload["metadata"]["name"]
    (redis,) = containers(stateful["uno-redis"])
    assert "--requirepass" in redis["command"] and "$(REDIS_PASSWORD)" in redis["command"]
    redis_conf = next(
        cm["data"]["redis.conf"]
        for cm in of_kind(rendered, "ConfigMap").values()
        if "redis.conf" in cm.get("data", {})
    )
    assert re.search(r"(?m)^appendonly yes$", redis_conf)
    assert re.search(r"(?m)^maxmemory-policy noeviction$", redis_conf)
    (postgres,) = containers(stateful["uno-postgres"])
    password = next(v for v in postgres["env"] if v["name"] == "POSTGRES_PASSWORD")
    assert password["valueFrom"]["secretKeyRef"]["key"] == "UNO_POSTGRES_PASSWORD"


#: Redis's memory units (redis.conf: "1mb" is 1024*1024 bytes) and Kubernetes' binary ones.
REDIS_UNITS = {"kb": 1 << 10, "mb": 1 << 20, "gb": 1 << 30}
KUBERNETES_UNITS = {"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30}


def redis_settings(config: dict[str, str], name: str = "redis.conf") -> dict[str, str]:
    """The settings Redis reads from the ConfigMap's ``name`` (mounted at /etc/redis), each
    file it includes read in its place: a later line wins."""
    found: dict[str, str] = {}
    for line in config[name].splitlines():
        key, _, value = line.partition(" ")
        if key == "include":
            found.update(redis_settings(config, value.removeprefix("/etc/redis/")))
        elif key and not key.startswith("#"):
            found[key] = value
    return found


def test_redis_refuses_writes_before_its_container_runs_out_of_memory(
    rendered: list[Resource],
) -> None:
    """``maxmemory`` (with ``noeviction``) follows each overlay's memory limit: below it, so
    Redis refuses a write rather than being killed, and not far below, so the memory an
    overlay gives Redis is used."""
    config = next(
        cm["data"] for cm in of_kind(rendered, "ConfigMap").values() if "redis.conf" in cm["data"]
    )
    maxmemory = re.fullmatch(r"(\d+)(kb|mb|gb)", redis_settings(config)["maxmemory"])
    assert maxmemory is not None
    cap = int(maxmemory[1]) * REDIS_UNITS[maxmemory[2]]
    (redis,) = containers(of_kind(rendered, "StatefulSet")["uno-redis"])
    limit = re.fullmatch(r"(\d+)(Ki|Mi|Gi)", redis["resources"]["limits"]["memory"])
    assert limit is not None
    limit_bytes = int(limit[1]) * KUBERNETES_UNITS[limit[2]]
    assert limit_bytes / 2 <= cap < limit_bytes


def test_the_migration_and_webhook_jobs_run_entry_point_roles(rendered: list[Resource]) -> None:
    jobs = of_kind(rendered, "Job")
    assert {name: containers(job)[0]["args"] for name, job in jobs.items()} == {
        "uno-migrate": ["migrate"],
        "uno-set-webhook": ["set-webhook"],
    }


def test_the_services_get_the_settings_the_code_reads(rendered: list[Resource]) -> None:
    (config,) = (
        c for c in of_kind(rendered, "ConfigMap").values() if "UNO_ENGINE_URL" in c["data"]
    )
    assert config["data"]["UNO_LOG_FORMAT"] == "json"
    for workload in workloads(rendered):
        if not containers(workload)[0]["image"].split(":")[0].endswith("uno-bot"):
            continue
        for container in containers(workload):
            names = set(config["data"]) | {v["name"] for v in container.get("env", [])}
            assert names & FORBIDDEN_VARIABLES == set(), workload["metadata"]["name"]
            assert names - CODE_VARIABLES - MANIFEST_VARIABLES == set()
            assert {"UNO_REDIS_URL", "UNO_ENGINE_TOKEN"} <= names
            if workload["metadata"]["name"] not in {"uno-engine", "uno-webapp"}:
                assert "UNO_DATABASE_URL" in names
            defined: set[str] = set()
            for variable in container.get("env", []):
                # Kubernetes expands $(NAME) only for a variable defined earlier in the list.
                for used in re.findall(r"\$\(([A-Z_]+)\)", variable.get("value", "")):
                    assert used in defined, f"{variable['name']} uses {used} before it is set"
                defined.add(variable["name"])
    bot = containers(of_kind(rendered, "Deployment")["uno-bot"])[0]
    assert "UNO_TELEGRAM_TOKEN" in {v["name"] for v in bot["env"]}


# ------------------------------------------------------------------------ network policies


def allowed(
    policies: list[Resource],
    source: dict[str, str],
    target: dict[str, str],
    port: int,
    namespace: dict[str, str] | None = None,
) -> bool:
    """Whether a pod labelled ``source`` may open ``port`` on a pod labelled ``target``:
    NetworkPolicy's rules (the policies selecting the target, if any, add up; none
    selecting it means open). The source is of the same namespace, or (``namespace``: its
    namespace's labels) of another."""

    def selects(selector: dict[str, Any], labels: dict[str, str]) -> bool:
        for key, value in selector.get("matchLabels", {}).items():
            if labels.get(key) != value:
                return False
        for expression in selector.get("matchExpressions", []):
            present = labels.get(expression["key"])
            if expression["operator"] == "In" and present not in expression["values"]:
                return False
            if expression["operator"] == "NotIn" and present in expression["values"]:
                return False
        return True

    applying = [
        p
        for p in policies
        if selects(p["spec"]["podSelector"], target) and "Ingress" in p["spec"]["policyTypes"]
    ]
    if not applying:
        return True
    for policy in applying:
        for rule in policy["spec"].get("ingress", []):
            peers = rule.get("from")
            ports = rule.get("ports")
            port_ok = ports is None or any(p.get("port") == port for p in ports)
            if namespace is None:
                peer_ok = peers is None or any(
                    "namespaceSelector" not in peer and selects(peer["podSelector"], source)
                    for peer in peers
                    if "podSelector" in peer
                )
            else:
                peer_ok = peers is not None and any(
                    "namespaceSelector" in peer
                    and selects(peer["namespaceSelector"], namespace)
                    and selects(peer.get("podSelector", {}), source)
                    for peer in peers
                )
            if port_ok and peer_ok:
                return True
    return False


def test_only_the_right_pods_reach_the_engine_redis_and_postgres(rendered: list[Resource]) -> None:
    policies = list(of_kind(rendered, "NetworkPolicy").values())
    pods = {w["metadata"]["name"]: pod_labels(w) for w in workloads(rendered)}
    outsider = {"app.kubernetes.io/name": "somebody-else"}
    reach = {
        ("uno-engine", 8080): {"uno-bot", "uno-worker", "uno-webapp"},
        ("uno-redis", 6379): {"uno-engine", "uno-worker", "uno-bot", "uno-webapp"},
        # The Mini App reads the records' archive for replays of older games.
        ("uno-postgres", 5432): {"uno-worker", "uno-bot", "uno-webapp", "uno-migrate"},
    }
    for (target, port), sources in reach.items():
        may = {
            name for name, labels in pods.items() if allowed(policies, labels, pods[target], port)
        }
        assert may - {target} == sources, target
        assert not allowed(policies, outsider, pods[target], port), target


#: Who comes from outside the namespace: Prometheus, and the ingress controller's pods.
PROMETHEUS = (
    {"kubernetes.io/metadata.name": "monitoring"},
    {"app.kubernetes.io/name": "prometheus"},
)
INGRESS = ({"kubernetes.io/metadata.name": "ingress-nginx"}, {"app.kubernetes.io/name": "nginx"})
#: Each public service's ports: the one the ingress reaches, and its metrics port.
PUBLIC_PORTS = {"uno-bot": (8090, 9102), "uno-webapp": (8070, 9104)}


def test_the_ingress_reaches_the_public_ports_and_prometheus_the_metrics_ports_alone(
    rendered: list[Resource],
) -> None:
    """The ingress controller brings Telegram's webhook calls to the bot and viewers to the
    Mini App, never to their metrics; Prometheus scrapes those metrics, on their own ports,
    and is no client of the public ones."""
    policies = list(of_kind(rendered, "NetworkPolicy").values())
    pods = {w["metadata"]["name"]: pod_labels(w) for w in workloads(rendered)}
    for name, (public, metrics) in PUBLIC_PORTS.items():
        target = pods[name]
        for (namespace, labels), reaches in ((INGRESS, public), (PROMETHEUS, metrics)):
            for port in (public, metrics):
                assert allowed(policies, labels, target, port, namespace) == (port == reaches), (
                    name,
                    namespace,
                    port,
                )
        elsewhere = {"kubernetes.io/metadata.name": "somewhere-else"}
        assert not allowed(policies, PROMETHEUS[1], target, metrics, elsewhere), name


def test_prometheus_is_pointed_at_each_services_metrics_port(rendered: list[Resource]) -> None:
    """The scrape annotations name the port the container serves /metrics on (its port
    named ``metrics``, the setting the service reads), for each service that has one."""
    deployments = of_kind(rendered, "Deployment")
    settings = {
        "uno-bot": "UNO_BOT_METRICS_PORT",
        "uno-webapp": "UNO_WEBAPP_METRICS_PORT",
        "uno-worker": "UNO_WORKER_METRICS_PORT",
    }
    for name, setting in settings.items():
        deployment = deployments[name]
        annotations = deployment["spec"]["template"]["metadata"]["annotations"]
        (container,) = containers(deployment)
        port = next(p["containerPort"] for p in container["ports"] if p["name"] == "metrics")
        env = {v["name"]: v.get("value") for v in container["env"]}
        assert annotations["prometheus.io/port"] == env[setting] == str(port), name
        assert annotations["prometheus.io/path"] == "/metrics"


# ------------------------------------------------------------------ the image and the probes


def test_the_manifests_run_the_image_the_build_makes(rendered: list[Resource]) -> None:
    """The name and tag scripts/container-check.sh builds (and docker-compose.yml runs):
    uno-bot:<version in pyproject.toml>; an overlay may only put a registry before it."""
    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    built = f"uno-bot:{VERSION}"
    assert compose["services"]["engine"]["image"] == built
    assert '-t "uno-bot:$VERSION"' in (REPO / "scripts" / "container-check.sh").read_text()
    apps = [
        container["image"]
        for workload in workloads(rendered)
        for container in containers(workload)
        if "uno-bot" in container["image"]
    ]
    assert apps and all(image == built or image.endswith(f"/{built}") for image in apps), apps


def test_the_probes_ask_what_the_compose_healthchecks_ask(rendered: list[Resource]) -> None:
    """scripts/container-check.sh runs every probe of k8s/base against the compose
    containers (tests/deploy/container_game.py); here each readiness probe is the same
    question as the healthcheck compose waits on."""
    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text())["services"]
    by_name = {**of_kind(rendered, "Deployment"), **of_kind(rendered, "StatefulSet")}
    for workload, service in (
        ("uno-engine", "engine"),
        ("uno-bot", "bot"),
        ("uno-webapp", "webapp"),
    ):
        (container,) = containers(by_name[workload])
        get = container["readinessProbe"]["httpGet"]
        port = next(p["containerPort"] for p in container["ports"] if p["name"] == get["port"])
        test = " ".join(compose[service]["healthcheck"]["test"])
        assert f"http://127.0.0.1:{port}{get['path']}" in test, (workload, test)
    for workload, service in (("uno-worker", "worker"), ("uno-redis", "redis")):
        (container,) = containers(by_name[workload])
        command = container["readinessProbe"]["exec"]["command"]
        assert compose[service]["healthcheck"]["test"] == ["CMD", *command], workload
    (postgres,) = containers(by_name["uno-postgres"])
    command = postgres["readinessProbe"]["exec"]["command"]
    test = compose["postgres"]["healthcheck"]["test"]
    assert test[1] == command[0] == "pg_isready" and " ".join(test[2:]) in " ".join(command)
