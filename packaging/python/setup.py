"""Tags the wheel for the platform its binary runs on.

The wheel holds no Python: its one file is the statically linked gpulint, installed as a script
(the wheel's .data/scripts), which pip copies into the environment's bin/ with its mode. A
static binary needs no particular glibc, so manylinux_2_17 (what pip on any x86-64 Linux since
2014 accepts) is honest. scripts/build-wheel copies the binary next to this file first.
"""
import os

from setuptools import setup
from distutils.command.build_scripts import build_scripts  # setuptools 66 has none of its own
from wheel.bdist_wheel import bdist_wheel


class CopyBinary(build_scripts):
    """Copies the binary as it is: build_scripts reads a script as text to fix its #! line."""

    def copy_scripts(self):
        self.mkpath(self.build_dir)
        outfiles = []
        for script in self.scripts:
            target = os.path.join(self.build_dir, os.path.basename(script))
            self.copy_file(script, target)
            os.chmod(target, 0o755)
            outfiles.append(target)
        return outfiles, outfiles


class PlatformWheel(bdist_wheel):
    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False  # a binary inside: not py3-none-any

    def get_tag(self):
        return "py3", "none", "manylinux_2_17_x86_64"


setup(cmdclass={"bdist_wheel": PlatformWheel, "build_scripts": CopyBinary})
