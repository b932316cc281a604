#!/usr/bin/env python3
"""Every --format json output matches its schema in docs/schemas/, and the schemas can fail.

Usage: json_schemas_test.py GPULINT (run from the source root by ctest). The outputs are those of
the bundled fixtures, which between them hold every workload kind, finding and fix gpulint makes.
"""
import copy
import json
import os
import subprocess
import sys
import unittest

import jsonschema

GPULINT = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 else "build/gpulint"
SCHEMAS = os.path.join("docs", "schemas")

# command, the schema its JSON follows, further arguments
OUTPUTS = [
    ("lint", "lint", ["--exit-zero"]),
    ("estimate", "estimate", []),
    ("parse", "parse", []),
    ("fix", "fix", ["--unsafe-fixes"]),
    ("fix", "fix", ["--maximize", "batch"]),
]


# the catalogs and rule listings: command line, schema
LISTINGS = [
    (["models", "--format", "json"], "models"),
    (["gpus", "--format", "json"], "gpus"),
    (["rules", "--format", "json"], "rules"),
    (["explain", "GL101", "--format", "json"], "explain"),
]


def output_of(command, extra):
    run = subprocess.run([GPULINT, command, "--isolated", "--format", "json", *extra, "fixtures"],
                         capture_output=True, text=True, check=False)
    if run.returncode not in (0, 1):
        raise AssertionError(f"gpulint {command} exited {run.returncode}: {run.stderr[:500]}")
    return json.loads(run.stdout)


def validator(name):
    with open(os.path.join(SCHEMAS, f"{name}.schema.json"), encoding="utf-8") as handle:
        schema = json.load(handle)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


class JsonSchemas(unittest.TestCase):
    def test_every_output_matches_its_schema(self):
        for command, schema, extra in OUTPUTS:
            with self.subTest(command=command):
                document = output_of(command, extra)
                self.assertEqual(document["version"], 1)
                self.assertGreater(len(document["files"]), 10)
                errors = [f"{e.json_path}: {e.message[:200]}"
                          for e in validator(schema).iter_errors(document)]
                self.assertEqual(errors, [])

    def test_every_listing_matches_its_schema(self):
        for args, schema in LISTINGS:
            with self.subTest(command=args[0]):
                run = subprocess.run([GPULINT, *args], capture_output=True, text=True, check=True)
                document = json.loads(run.stdout)
                self.assertEqual(document["version"], 1)
                errors = [f"{e.json_path}: {e.message[:200]}"
                          for e in validator(schema).iter_errors(document)]
                self.assertEqual(errors, [])
                if schema != "explain":
                    self.assertGreater(len(document[schema]), 20)
                broken = copy.deepcopy(document)
                broken["undocumented"] = True
                self.assertFalse(validator(schema).is_valid(broken))

    def test_the_outputs_hold_what_the_schemas_describe(self):
        # A schema checked only against empty lists proves nothing: the fixtures give findings
        # with fixes, estimates with a breakdown and without, and proposals with changes.
        lint = output_of("lint", ["--exit-zero"])
        findings = [f for file in lint["files"] for f in file["findings"]]
        self.assertTrue(any(f["fix"] for f in findings))
        estimate = output_of("estimate", [])
        workloads = [w for file in estimate["files"] for w in file["workloads"]]
        self.assertTrue(any(w["per_gpu"] for w in workloads))
        self.assertTrue(any(w["per_gpu"] is None for w in workloads))
        fix = output_of("fix", ["--maximize", "batch"])
        self.assertTrue(any(p["changes"] for file in fix["files"] for p in file["proposals"]))

    def test_a_schema_rejects_what_it_does_not_describe(self):
        document = output_of("lint", ["--exit-zero"])
        check = validator("lint")
        broken = copy.deepcopy(document)
        del broken["version"]
        self.assertFalse(check.is_valid(broken))
        broken = copy.deepcopy(document)
        finding = next(f for file in broken["files"] for f in file["findings"])
        finding["severity"] = "fatal"
        self.assertFalse(check.is_valid(broken))
        broken = copy.deepcopy(document)
        broken["files"][0]["undocumented"] = True
        self.assertFalse(check.is_valid(broken))


if __name__ == "__main__":
    unittest.main()
