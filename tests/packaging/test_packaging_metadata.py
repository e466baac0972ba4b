"""What the wheel says about itself: the MIT licence as an SPDX expression with its file, and
type information (PEP 561) for the three import packages."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("companion", "firmware_bridge", "ui")


def test_licence_is_an_spdx_expression_with_its_file() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert pyproject["project"]["license"] == "MIT"
    assert pyproject["project"]["license-files"] == ["LICENSE"]
    # setuptools writes License-Expression (PEP 639) from 77 on
    assert "setuptools>=77" in pyproject["build-system"]["requires"]
    licence = (ROOT / "LICENSE").read_text()
    assert licence.startswith("MIT License\n\nCopyright (c) ")
    assert "the Sekigahara table companion authors" in licence


@pytest.mark.slow
def test_the_wheel_carries_licence_and_types(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--wheel-dir", str(tmp_path), str(ROOT)], check=True, timeout=600)
    wheel = next(tmp_path.glob("sekigahara_companion-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(archive.read(f"{info}/METADATA").decode())
    assert metadata["License-Expression"] == "MIT"
    assert metadata["License"] is None  # the deprecated field is gone
    assert metadata.get_all("License-File") == ["LICENSE"]
    assert f"{info}/licenses/LICENSE" in names
    assert {f"{package}/py.typed" for package in PACKAGES} <= names
