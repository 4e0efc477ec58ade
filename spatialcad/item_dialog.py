"""The item dialog of macros/OpenItem.FCMacro: pick (or type) the id of an item to open.

Qt's ``QInputDialog.getItem`` with an editable list completes inline: the id it shows
selected counts as a completion, so the first Return only accepts the completion (the
selection clears) and a second one was needed.  :func:`item_dialog` keeps the list but
pops the completions up instead, the ids containing what is typed, so Return on the id
shown opens it at once, and part of an id (``0003``) is enough (:func:`pick_item`).
Qt comes from FreeCAD's ``PySide``, imported only when a dialog is made.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

TITLE = "spatialcad: open an item"


def pick_item(ids: Sequence[str], typed: str) -> str:
    """The item id meant by ``typed``: an id itself, else the only id containing it
    (``0003``, ``CrossSection/Level1/0003``); ``ValueError`` saying why otherwise."""
    typed = typed.strip()
    if typed in ids:
        return typed
    found = [i for i in ids if typed and typed in i]
    if len(found) == 1:
        return found[0]
    if not found:
        raise ValueError(f"no item id contains {typed!r} ({len(ids)} items, ids like "
                         f"{', '.join(ids[:3])})")
    raise ValueError(f"{len(found)} item ids contain {typed!r} ({', '.join(found[:3])}, ...): "
                     "type more of the id")


def item_dialog(ids: Sequence[str], label: str, parent: Any = None) -> Any:
    """A ``QInputDialog`` listing ``ids``, the first shown; what is typed pops up the ids
    containing it."""
    if not ids:
        raise ValueError("the benchmark has no items")
    from PySide import QtCore, QtGui

    dialog = QtGui.QInputDialog(parent)
    dialog.setWindowTitle(TITLE)
    dialog.setLabelText(label)
    dialog.setComboBoxItems(list(ids))
    dialog.setComboBoxEditable(True)
    dialog.setTextValue(ids[0])
    completer = dialog.findChild(QtGui.QComboBox).completer()
    completer.setCompletionMode(QtGui.QCompleter.PopupCompletion)
    completer.setFilterMode(QtCore.Qt.MatchContains)
    return dialog


def ask_item(ids: Sequence[str], label: str, parent: Any = None) -> str | None:
    """The id chosen in :func:`item_dialog` (None if cancelled); ``ValueError`` if what was
    typed names no single id."""
    dialog = item_dialog(ids, label, parent)
    if not dialog.exec_():
        return None
    return pick_item(ids, dialog.textValue())
