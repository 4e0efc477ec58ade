"""The package's layers, read from its import statements (every one, at any depth).

geometry/ imports nothing of ours but itself; render/ only geometry; cad/ only geometry and
freecad_env; the verifiers' toolkit (verify/) only geometry and render; the record format
(record/) imports no task and of the run machinery (run/) only its plan; a task's verifier
never imports a task's generator or drawings; only freecad_env, cad/ and the tasks'
scene.py import FreeCAD; and no module imports itself back through others.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "spatialcad"
FREECAD_MODULES = {"FreeCAD", "FreeCADGui", "Part", "TechDraw", "Mesh", "Import", "MeshPart"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str) -> set[str]:
    """Every module ``name`` imports (``from a.b import c`` gives a.b, or a.b.c if that is
    one of our modules), at module level or inside functions."""
    found = set()
    for node in ast.walk(ast.parse(MODULES[name].read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names
                      if f"{node.module}.{a.name}" in MODULES}
    return found


def ours(name: str) -> set[str]:
    """The spatialcad modules ``name`` imports (a package stands for its ``__init__``)."""
    return {m for m in imports(name) if m in MODULES} - {name}


def under(name: str, *prefixes: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


LAYERS = [  # (modules, what they may import of ours besides themselves)
    ("spatialcad.geometry", ()),
    ("spatialcad.render", ("spatialcad.geometry",)),
    ("spatialcad.cad", ("spatialcad.geometry", "spatialcad.freecad_env")),
    ("spatialcad.verify", ("spatialcad.geometry", "spatialcad.render")),
]


@pytest.mark.parametrize(("layer", "allowed"), LAYERS)
def test_lower_layers_import_only_what_lies_below(layer, allowed):
    bad = [f"{m} imports {dep}" for m in MODULES if under(m, layer)
           for dep in sorted(ours(m)) if dep != "spatialcad" and not under(dep, layer, *allowed)]
    assert not bad, bad


def test_the_record_format_imports_no_task_and_of_the_run_only_its_plan():
    record = [m for m in MODULES if under(m, "spatialcad.record")]
    assert "spatialcad.record.benchmark" in record
    bad = [f"{m} imports {dep}" for m in [*record, "spatialcad.run.plan"] for dep in ours(m)
           if under(dep, "spatialcad.tasks")
           or (under(dep, "spatialcad.run") and dep != "spatialcad.run.plan")]
    assert not bad, bad


def _task_module(name: str) -> tuple[str, str] | None:
    """``(task, module)`` for spatialcad.tasks.<task>.<module>."""
    parts = name.split(".")
    if len(parts) == 4 and parts[:2] == ["spatialcad", "tasks"]:
        return parts[2], parts[3]
    return None


def test_verifiers_never_import_generators_or_drawings():
    bad = []
    for name in MODULES:
        where = _task_module(name)
        if where is None or not where[1].startswith("verify"):
            continue
        for dep in ours(name):
            other = _task_module(dep)
            if other and other[1].startswith(("generate", "draw")):
                bad.append(f"{name} imports {dep}")
    assert not bad, bad


def test_only_freecad_env_cad_and_scenes_import_freecad():
    bad = []
    for name in MODULES:
        where = _task_module(name)
        allowed = (name == "spatialcad.freecad_env" or under(name, "spatialcad.cad")
                   or (where is not None and where[1] == "scene"))
        if not allowed and imports(name) & FREECAD_MODULES:
            bad.append(f"{name} imports {sorted(imports(name) & FREECAD_MODULES)}")
    assert not bad, bad


def test_no_import_cycles():
    graph = {name: ours(name) for name in MODULES}
    cycles, state = [], {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = "open"
        for dep in sorted(graph[node]):
            if state.get(dep) == "open":
                cycles.append(" -> ".join(path[path.index(dep):] + [dep]))
            elif dep not in state:
                visit(dep, [*path, dep])
        state[node] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not cycles, cycles


def test_every_task_package_has_its_parts():
    from spatialcad.tasks import registry

    for info in registry.tasks().values():
        folder = PACKAGE / "tasks" / info.name
        assert info.package == f"spatialcad.tasks.{info.name}"
        for part in ("__init__", "spec", "generate", "verify", "scene"):
            assert (folder / f"{part}.py").is_file(), f"{info.name} has no {part}.py"


def test_only_render_opencv_imports_opencv():
    """OpenCV's CPU-dependent dispatch is switched off where it is imported (same bytes on
    every CPU, docs/ARCHITECTURE.md): every other module takes cv2 from there."""
    bad = [m for m in MODULES if "cv2" in imports(m) and m != "spatialcad.render.opencv"]
    assert not bad, bad
