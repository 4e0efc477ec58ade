"""The record format: the item record and its JSON encoding (records), the typed scene
specs stored in it (spec), the benchmark directory on disk (benchmark), its leak-free
splits (splits) and the library versions every manifest records (versions).  It imports no
task."""
