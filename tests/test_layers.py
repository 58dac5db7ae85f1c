"""The packages import one way: table/ is the core and imports no other package of the
project; vision/ and display/ import table/ alone (vision/ only its piece vocabulary and
record codec); hardware/ imports nothing of the project; tabletop21/ wires them all;
nothing installed imports tools/. Read from the source, every import statement counted,
those inside functions too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("table", "vision", "display", "hardware", "tabletop21", "tools")
ALLOWED = {
    "table": {"table"},
    "vision": {"vision", "table"},
    "display": {"display", "table"},
    "hardware": {"hardware"},
    "tabletop21": {"tabletop21", "table", "vision", "display", "hardware"},
    "tools": set(PACKAGES),
}
# What of the core a reader may use: the pieces, the reads it reports, their errors and codec.
VISION_MAY_USE = {"table.reads", "table.errors", "table.serial", "table.rules.cards", "table.rules.dice",
                  "table.rules.tiles"}


def project_imports(path: Path) -> list[str]:
    """The dotted names of the project's modules that a file imports."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names += [f"{node.module}.{alias.name}" for alias in node.names]
    return [name for name in names if name.split(".")[0] in PACKAGES]


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_imports_only_the_packages_below_it(package):
    wrong = [f"{path.relative_to(ROOT)} imports {name}" for path in sources(package)
             for name in project_imports(path) if name.split(".")[0] not in ALLOWED[package]]
    assert sources(package) and not wrong, "\n".join(wrong)


def test_the_readers_use_only_the_cores_vocabulary():
    wrong = [f"{path.relative_to(ROOT)} imports {name}" for path in sources("vision")
             for name in project_imports(path)
             if name.startswith("table") and not any(name == allowed or name.startswith(allowed + ".")
                                                    for allowed in VISION_MAY_USE)]
    assert not wrong, "\n".join(wrong)


def test_the_import_check_sees_imports_inside_functions(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("def f():\n    from hardware.frames import Frame\n    import vision.read\n")
    assert project_imports(source) == ["hardware.frames.Frame", "vision.read"]
