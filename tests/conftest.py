"""Every test's class journals go to a folder of the test session's own (a class
server keeps a journal in the user's data folder unless told otherwise:
`mindwidget.classroom.journal.data_dir` reads ``XDG_DATA_HOME``), never to the
data folder of the person running the tests."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

_DATA = tempfile.mkdtemp(prefix="mindwidget-test-data-")
os.environ["XDG_DATA_HOME"] = _DATA
atexit.register(shutil.rmtree, _DATA, ignore_errors=True)
