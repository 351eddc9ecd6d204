#!/usr/bin/env python3
"""Checks the Kubernetes manifests here: valid YAML, the fields each object needs, and an
Indexed Job whose shard count matches its completions. Installs PyYAML with pip if missing.
Usage: python3 scripts/cluster/k8s/check.py [FILE...] (default: every .yaml here)."""
import glob
import os
import re
import subprocess
import sys

try:
    import yaml
except ImportError:
    subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", "pyyaml"])
    import yaml


def fail(path, why):
    print(f"{path}: {why}")
    sys.exit(1)


def check_job(path, job):
    spec = job["spec"]
    pod = spec["template"]["spec"]
    if pod.get("restartPolicy") not in ("Never", "OnFailure"):
        fail(path, "a Job's pods need restartPolicy Never or OnFailure")
    containers = pod["containers"]
    if not containers or not all(c.get("image") and c.get("command") for c in containers):
        fail(path, "every container needs an image and a command")
    mounts = {m["name"] for c in containers for m in c.get("volumeMounts", [])}
    volumes = {v["name"] for v in pod.get("volumes", [])}
    if not mounts <= volumes:
        fail(path, f"volume mounts {sorted(mounts - volumes)} have no volume")
    if spec.get("completionMode") != "Indexed":
        return
    script = " ".join(" ".join(c["command"] + c.get("args", [])) for c in containers)
    shard = re.search(r"--shard \$JOB_COMPLETION_INDEX/(\d+)", script)
    if not shard:
        fail(path, "an Indexed Job's pods take their shard from $JOB_COMPLETION_INDEX")
    if int(shard.group(1)) != spec["completions"]:
        fail(path, f"--shard .../{shard.group(1)} but {spec['completions']} completions")
    if spec.get("parallelism", 1) > spec["completions"]:
        fail(path, "parallelism beyond completions")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    paths = sys.argv[1:] or sorted(glob.glob(os.path.join(here, "*.yaml")))
    jobs = 0
    for path in paths:
        with open(path) as f:
            try:
                docs = [d for d in yaml.safe_load_all(f) if d is not None]
            except yaml.YAMLError as e:
                fail(path, f"not valid YAML: {e}".replace("\n", " "))
        for doc in docs:
            for key in ("apiVersion", "kind", "metadata", "spec"):
                if key not in doc:
                    fail(path, f"a {doc.get('kind', 'document')} without {key}")
            if doc["kind"] == "Job":
                check_job(path, doc)
                jobs += 1
    print(f"ok: {len(paths)} files, {jobs} jobs")


main()
