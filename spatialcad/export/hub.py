"""Uploading a Hugging Face export to the hub (``export --format hf --push-to-hub REPO``).

The token is read only from the environment variable ``HF_TOKEN``: never from the command
line, never from a repository URL, never from a login that ``huggingface-cli`` saved.  A
refusal (no ``HF_TOKEN``, a REPO that is not ``owner/name`` or that holds something like a
token) comes before anything is exported; the token never appears in a message.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from huggingface_hub import HfApi

TOKEN_ENV = "HF_TOKEN"
REPO_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*")
TOKEN_LIKE = re.compile(r"hf_[A-Za-z0-9]{8,}")


def hub_token(repo: str) -> str:
    """The token for pushing to dataset ``repo``; ``ValueError`` (one line) if ``repo`` is
    not a plain ``owner/name`` or ``HF_TOKEN`` is not set."""
    if TOKEN_LIKE.search(repo):
        raise ValueError(f"--push-to-hub takes a repository id (owner/name); what was given "
                         f"holds an access token: put the token in {TOKEN_ENV} only")
    if not REPO_ID.fullmatch(repo):
        raise ValueError(f"--push-to-hub takes a repository id such as owner/name, not "
                         f"{repo!r} (no URL, no credentials)")
    token = os.environ.get(TOKEN_ENV, "").strip()
    if not token:
        raise ValueError(f"--push-to-hub needs a Hugging Face token in the environment "
                         f"variable {TOKEN_ENV} (no other token is used)")
    return token


def push_folder(folder: Path, repo: str, token: str) -> str:
    """Create dataset ``repo`` if needed and upload ``folder`` to it; return its URL."""
    api = HfApi(token=token)
    try:
        url = api.create_repo(repo, repo_type="dataset", exist_ok=True)
        api.upload_folder(folder_path=str(folder), repo_id=repo, repo_type="dataset",
                          commit_message="Upload spatialcad benchmark export")
    except Exception as exc:  # any hub or network failure: one line, the token removed
        text = f"{type(exc).__name__}: {exc}".replace(token, "***").splitlines()[0]
        raise ValueError(f"uploading {folder} to {repo} failed: {text}") from None
    return str(url)
