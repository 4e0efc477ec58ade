"""The run machinery: which items a run makes (plan), how they are built, proved and
written (pipeline, verification), the scenes a run keeps apart (scenes), runs split into
shards and merged back (shards), run on a SLURM cluster (cluster), and output paths
written all or nothing by one run at a time (outdir)."""
