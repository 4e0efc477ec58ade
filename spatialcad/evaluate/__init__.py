"""Scoring models on spatialcad benchmarks.

``prompts`` builds the prompt of an item, ``client`` talks to an OpenAI-compatible chat
endpoint, ``extract`` reads the answer out of a response, ``runner`` writes resumable
JSONL runs, ``baselines`` scores model-free answerers (random, constant, shortcut audit),
``ladder`` runs the Inf-Bench ladder on freshly generated items, ``human`` reads the
results files of the human baseline quiz, ``stats`` and ``report`` turn runs into tables
and plots, ``picture_sizes`` measures the pictures at the size a model sees them
(``spatialcad audit``), ``commands`` holds the click commands.
"""
