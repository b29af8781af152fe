"""The chart's PrometheusRule objects, checked as the cluster and Prometheus would read them.

kubernetes-validate has no schema for monitoring.coreos.com/v1 (a CRD), so each rendered PrometheusRule
is validated here against the openAPIV3Schema of the Prometheus Operator's own CRD, strictly (a field
the CRD does not define is an error, as kubernetes-validate --strict treats core kinds), and its spec
is written out as a Prometheus rule file for promtool (infra/k8s-tools.sh rules).

  python prometheus-rule-check.py <CRD yaml> <rendered manifests> <out dir>
"""

import json
import sys
from pathlib import Path

import jsonschema
import yaml


def strict(schema):
    """Objects with declared properties and no additionalProperties refuse undeclared fields."""
    if isinstance(schema, dict):
        schema = {k: strict(v) for k, v in schema.items()}
        if (
            schema.get("type") == "object"
            and "properties" in schema
            and "additionalProperties" not in schema
            and not schema.get("x-kubernetes-preserve-unknown-fields")
        ):
            schema["additionalProperties"] = False
        return schema
    if isinstance(schema, list):
        return [strict(s) for s in schema]
    return schema


def main(crd_path, manifests_path, out_dir):
    crd = yaml.safe_load(Path(crd_path).read_text())
    version = next(v for v in crd["spec"]["versions"] if v["name"] == "v1")
    validator = jsonschema.Draft7Validator(strict(version["schema"]["openAPIV3Schema"]))
    rules = [
        d
        for d in yaml.safe_load_all(Path(manifests_path).read_text())
        if d and d.get("apiVersion") == "monitoring.coreos.com/v1" and d.get("kind") == "PrometheusRule"
    ]
    if not rules:
        print(f"{manifests_path}: no PrometheusRule rendered", file=sys.stderr)
        return 1
    failed = 0
    for rule in rules:
        name = rule["metadata"]["name"]
        errors = sorted(validator.iter_errors(rule), key=lambda e: list(e.absolute_path))
        for error in errors:
            path = ".".join(str(p) for p in error.absolute_path) or "(root)"
            print(f"PrometheusRule {name}: {path}: {error.message}", file=sys.stderr)
        if errors:
            failed = 1
        else:
            print(f"PrometheusRule {name}: valid against the CRD ({crd['metadata']['name']} v1)")
        # JSON is YAML: promtool reads the spec ({groups: [...]}) as a rule file.
        (Path(out_dir) / f"{name}.yaml").write_text(json.dumps(rule["spec"], indent=2))
    return failed


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
