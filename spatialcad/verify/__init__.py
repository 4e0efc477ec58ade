"""Tools shared by the tasks' verifiers (each task's own proof is its ``verify.py``):
panel cropping and answer checks (base), pixel rays through voxel stacks (raycast)."""
