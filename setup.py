"""The page bundle goes into every artefact.

``build_py`` builds ``api/web/dist`` with Node (``npm ci`` and ``npm run build:web``) when a
source checkout has no bundle yet, so a wheel built from a fresh clone serves the page; a build
from the sdist finds the bundle already inside it. Everything else is in ``pyproject.toml``.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = Path(__file__).resolve().parent
BUNDLE = ROOT / "api" / "web" / "dist" / "index.html"
WEB_SOURCES = ROOT / "web" / "build.mjs"


def ensure_page_bundle() -> None:
    if BUNDLE.is_file() or not WEB_SOURCES.is_file():
        return
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit(
            "the page bundle (api/web/dist) is not built and npm is not on PATH: install "
            "Node.js >= 20 with npm, or build from the sdist, which carries the bundle"
        )
    if not (ROOT / "node_modules" / ".package-lock.json").is_file():
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=ROOT, check=True)
    subprocess.run([npm, "run", "build:web"], cwd=ROOT, check=True)


class BuildPyWithPage(build_py):
    def run(self) -> None:
        ensure_page_bundle()
        super().run()


class SdistWithPage(sdist):
    def run(self) -> None:
        ensure_page_bundle()
        super().run()


setup(cmdclass={"build_py": BuildPyWithPage, "sdist": SdistWithPage})
