"""Pictures of cube stacks: orthographic views at a common scale, and isometric views."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from spatialcad.geometry.colours import CUBE_GREY, Colour
from spatialcad.geometry.voxels import Voxel
from spatialcad.render.camera import Camera, camera, orbit
from spatialcad.render.mesh import Mesh, merge, voxel_mesh
from spatialcad.render.pixels import pixels_differing
from spatialcad.render.raster import fit_scale, render, triangle_ids, triangle_pixels

from .opencv import cv2

MARGIN = 12


def stack_view(
    voxels: Iterable[Voxel],
    view: str,
    *,
    colors: Mapping[Voxel, Colour] | None = None,
    cell: int = 36,
) -> np.ndarray:
    """An orthographic view with every cube face ``cell`` pixels wide."""
    vox = [tuple(v) for v in voxels]
    mesh = voxel_mesh(vox, colors, default_color=CUBE_GREY)
    cam = camera(view)
    uv = cam.project(mesh.vertices)[:, :2]
    extent = uv.max(axis=0) - uv.min(axis=0)
    size = (int(round(extent[0] * cell)) + 2 * MARGIN, int(round(extent[1] * cell)) + 2 * MARGIN)
    return render(mesh, cam, size, scale=float(cell))


ISOMETRIC_SIZE = (400, 400)


def stack_isometric(
    voxels: Iterable[Voxel],
    *,
    colors: Mapping[Voxel, Colour] | None = None,
    size: tuple[int, int] = ISOMETRIC_SIZE,
) -> np.ndarray:
    """The isometric picture of the stack fitted into ``size``."""
    cubes: list[Voxel] = [(int(x), int(y), int(z)) for x, y, z in voxels]
    mesh = voxel_mesh(cubes, colors, default_color=CUBE_GREY)
    return render(mesh, camera("isometric"), size, scale=isometric_scale(cubes, size))


def isometric_scale(voxels: Iterable[Voxel], size: tuple[int, int] = ISOMETRIC_SIZE) -> float:
    """The pixels per unit at which :func:`stack_isometric` draws the stack."""
    cam = camera("isometric")
    return fit_scale([voxel_mesh([tuple(v) for v in voxels])], cam, size, MARGIN)


@dataclass(frozen=True)
class Framing:
    """Where a scene lands in a picture: camera, pixels per unit, image size, and the
    projected point at the image centre (None: each picture is centred on its own bounds)."""

    cam: Camera
    scale: float
    size: tuple[int, int]
    center: tuple[float, float] | None = None

    def draft(self, shrink: int) -> Framing:
        """The same framing at ``1 / shrink`` of the size: a quick look at the picture."""
        w, h = self.size
        return Framing(self.cam, self.scale / shrink, (w // shrink, h // shrink), self.center)


FLOOR_TILES: tuple[Colour, Colour] = ((236, 236, 236), (186, 192, 204))
SHADOW_TILE: Colour = (112, 116, 128)  # a floor cell under a piece's cubes (its shadow)


def box_framing(
    cam: Camera, box: Sequence[int], size: tuple[int, int], margin: int = MARGIN
) -> Framing:
    """The framing that fits the box ``[0, X] x [0, Y] x [0, Z]`` into ``size``."""
    corners = np.array(list(itertools.product(*[(0.0, float(n)) for n in box])))
    uv = cam.project(corners)[:, :2]
    lo, hi = uv.min(axis=0), uv.max(axis=0)
    room = np.array([size[0] - 2 * margin, size[1] - 2 * margin], dtype=float)
    scale = float(np.min(room / np.maximum(hi - lo, 1e-9)))
    return Framing(cam, scale, size, (float(lo[0] + hi[0]) / 2, float(lo[1] + hi[1]) / 2))


@lru_cache(maxsize=64)
def floor_mesh(nx: int, ny: int, shadow: frozenset[tuple[int, int]] = frozenset()) -> Mesh:
    """A checkerboard of unit tiles just below z = 0 over ``[0, nx] x [0, ny]`` (no edges),
    the cells of ``shadow`` in ``SHADOW_TILE``; remembered, so frozen (read-only)."""
    verts: list[tuple[float, float, float]] = []
    tris: list[tuple[int, int, int]] = []
    cols: list[Colour] = []
    for x, y in itertools.product(range(nx), range(ny)):
        colour = SHADOW_TILE if (x, y) in shadow else FLOOR_TILES[(x + y) % 2]
        base = len(verts)
        verts += [(x, y, -0.01), (x + 1, y, -0.01), (x + 1, y + 1, -0.01), (x, y + 1, -0.01)]
        tris += [(base, base + 1, base + 2), (base, base + 2, base + 3)]
        cols += [colour] * 2
    return Mesh(np.array(verts, dtype=float), np.array(tris), np.array(cols),
                np.zeros((0, 2, 3))).freeze()


def stack_picture(
    voxels: Iterable[Voxel],
    framing: Framing,
    *,
    colors: Mapping[Voxel, Colour] | None = None,
    floor: tuple[int, int] | None = None,
    ssaa: int = 2,
    shadow: bool = False,
) -> np.ndarray:
    """The cubes (grey unless coloured) as ``framing`` sees them, on an optional floor
    (``ssaa``: supersampling of the edges, 1 for quick drafts).  With ``shadow`` the floor
    cells under the cubes are dark: a cube resting on cubes not drawn shows where it
    stands."""
    cubes = [tuple(v) for v in voxels]
    mesh = voxel_mesh(cubes, colors, default_color=CUBE_GREY)
    if floor is not None:
        under = frozenset((int(v[0]), int(v[1])) for v in cubes) if shadow else frozenset()
        mesh = _on_floor(mesh, (int(floor[0]), int(floor[1])), under)
    return render(mesh, framing.cam, framing.size, scale=framing.scale, center=framing.center,
                  ssaa=ssaa)


@lru_cache(maxsize=512)
def _on_floor(cubes: Mesh, floor: tuple[int, int],
              shadow: frozenset[tuple[int, int]] = frozenset()) -> Mesh:
    """The cubes' (frozen, remembered) mesh merged with the floor's (``shadow``: its dark
    cells), remembered and frozen too: the same pieces stand on the same floor in picture
    after picture."""
    return merge([cubes, floor_mesh(*floor, shadow)]).freeze()


def cube_labels(voxels: Sequence[Voxel], framing: Framing) -> np.ndarray:
    """Per pixel, the index (into ``voxels``) of the cube seen there, or -1 (one sample per
    pixel, no edges)."""
    mesh, cube_of = _coded_mesh(voxels)
    ids = triangle_ids(mesh, framing.cam, framing.size, scale=framing.scale,
                       center=framing.center)
    labels: np.ndarray = np.append(cube_of, -1)[ids]  # triangle id -1 (none) reads the -1
    return labels


def cube_visibility(voxels: Sequence[Voxel], framing: Framing) -> list[int]:
    """Pixels of each cube (in the order given) left visible by the others in ``framing``
    (those :func:`cube_labels` gives it)."""
    mesh, cube_of = _coded_mesh(voxels)
    pixels = triangle_pixels(mesh, framing.cam, framing.size, scale=framing.scale,
                             center=framing.center)
    counts = np.bincount(cube_of, weights=pixels, minlength=len(voxels))
    return [int(c) for c in counts[: len(voxels)]]


def _coded_mesh(voxels: Sequence[Voxel]) -> tuple[Mesh, np.ndarray]:
    """The cubes' mesh, each cube in its own code colour, and each triangle's cube."""
    vox = [(int(x), int(y), int(z)) for x, y, z in voxels]
    codes = {v: (i % 256, i // 256, 0) for i, v in enumerate(vox)}
    mesh = voxel_mesh(vox, codes)
    return mesh, mesh.face_colors[:, 0].astype(int) + 256 * mesh.face_colors[:, 1].astype(int)


def _iso_elevation() -> float:
    return math.degrees(math.atan(1.0 / math.sqrt(2.0)))


# Two isometric viewpoints from opposite sides: together they show most cubes a single
# view hides (the second is the first turned 180 degrees about z).
TWO_SIDES: dict[str, Camera] = {
    "front-right": camera("isometric"),
    "back-left": orbit(225.0, _iso_elevation()),
}


# A stack seen from two opposite corners: the isometric view (eye at +1, -1, +1) and the
# view from the back-left, below (eye at -1, +1, -1; screen-up is still +z).  Between
# them every face direction of every cube shows, so few cubes hide from both.  Both look
# along one axis, so a stack's outline has the same size in both (mirrored left-right):
# one scale fits it in both.
OPPOSITE_CORNERS: dict[str, Camera] = {
    "front-right, above": camera("isometric"),
    "back-left, below": orbit(225.0, -_iso_elevation()),
}


def most_visible(voxels: Sequence[Voxel], framings: Sequence[Framing]) -> np.ndarray:
    """Per cube, its largest visible area over ``framings``, in cube-face areas."""
    best = np.zeros(len(voxels))
    for framing in framings:
        counts = np.array(cube_visibility(voxels, framing), dtype=float)
        best = np.maximum(best, counts / framing.scale**2)
    return best


LABEL_BAND = 22  # pixels above each picture of a labelled column


def labelled_column(images: Sequence[np.ndarray], labels: Sequence[str | None],
                    band_height: int = LABEL_BAND) -> np.ndarray:
    """Pictures of equal width one above the other, each under a band holding its small grey
    label (None: the band is left blank), separated by thin grey rules."""
    parts = []
    for i, (img, label) in enumerate(zip(images, labels, strict=True)):
        band = np.full((band_height, img.shape[1], 3), 255, dtype=np.uint8)
        if label is not None:
            cv2.putText(band, label, (6, band_height - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                        (110, 110, 110), 1, cv2.LINE_AA)
        if i:
            band[0, :] = (190, 190, 190)
        parts += [band, img]
    return np.concatenate(parts, axis=0)


def common_isometric_framing(stacks: Sequence[Iterable[Voxel]], size: tuple[int, int]) -> Framing:
    """The isometric framing whose scale fits every one of ``stacks`` into ``size``, so
    their cubes are drawn the same size (each picture centred on its own stack)."""
    cam = camera("isometric")
    scale = min(fit_scale([voxel_mesh([tuple(v) for v in s])], cam, size, MARGIN)
                for s in stacks)
    return Framing(cam, scale, size)


class IsometricLook:
    """A stack's isometric picture at a fixed small scale, to tell whether stacks look alike.

    Stacks showing the same visible surface (up to translation) get equal pictures; a face
    seen differently changes dozens of pixels (a cube face covers about scale^2 / 1.7).
    The picture's size follows from the projected bounds and is known without drawing, so
    stacks of different outline are told apart without rendering them.
    """

    _CORNERS = np.array(list(itertools.product((0, 1), repeat=3)))

    def __init__(self, voxels: Iterable[Voxel], scale: float = 10.0) -> None:
        self.voxels = [(int(x), int(y), int(z)) for x, y, z in voxels]
        self.scale = scale
        self.cam = camera("isometric")
        points = (np.array(self.voxels)[:, None, :] + self._CORNERS[None]).reshape(-1, 3)
        uv = self.cam.project(points)[:, :2]
        self.size = self.sizes((uv.max(axis=0) - uv.min(axis=0))[None], scale)[0]
        self._picture: np.ndarray | None = None

    @staticmethod
    def sizes(extents: np.ndarray, scale: float = 10.0) -> list[tuple[int, int]]:
        """The picture sizes of stacks whose projected extents (rows of u and v extent)
        are ``extents``."""
        return [(int(w), int(h)) for w, h in
                (np.ceil(np.asarray(extents) * scale).astype(int) + 6).tolist()]

    @property
    def picture(self) -> np.ndarray:
        if self._picture is None:
            mesh = voxel_mesh(self.voxels, default_color=CUBE_GREY)
            self._picture = render(mesh, self.cam, self.size, scale=self.scale, ssaa=1)
        return self._picture

    def difference(self, other: IsometricLook) -> int:
        """Pixels in which the two pictures differ (every pixel when their sizes differ)."""
        if self.size != other.size:
            return max(self.size[0] * self.size[1], other.size[0] * other.size[1])
        return pixels_differing(self.picture, other.picture)
