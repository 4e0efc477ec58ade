"""Tools shared by the tasks' verifiers (each task's own proof is its ``verify.py``): panel
crops and answer checks (base), pixel rays through voxel stacks (raycast), and the cube
tasks' own folding by rolling a cube (cube_rolling) and reading nets and corner views back
from the image (cube_reading)."""
