"""The class server's inbox: what a pupil's page may send, checked (`parse`), and how much.

Everything that arrives on a socket is hostile until checked here: at most
`MAX_MESSAGE_BYTES`, JSON nested at most `MAX_DEPTH` deep (an object of
scalars), a known ``type`` and only that type's fields, each of its kind. A
message that fails is refused with a `Refused` in the class page's words
(``words="class"``: ``err_<key>`` of the class strings, with parameters) and
changes nothing. The table's own checks (is this play possible now?) come
after, in the `Session`. `RateLimit` is how many messages a socket may send.

The messages are `mindwidget.wire.PupilMessage` (declared there once; `FIELDS`
and `REQUIRED` are read from it). None carries a time: the server stamps
every action with its own clock, so no number from a page can act.

* before joining: ``join {code, name, lang?}``, ``rejoin {token}``,
  ``nickname {lang?}``, ``ping {id}`` (the connection check: answered ``pong``)
* at a table: ``ready``, ``play``, ``stop``, ``propose_star``, ``vote {agree}``,
  ``next_level``, ``start_blind``, ``new_game``, ``wait``, ``hello``;
  ``set {name, value}`` (language, size); ``pong {id}`` (the answer to the
  server's ping); ``answer {question, choice}`` (the lesson's question,
  `questions.Questions.answer`)
"""

from __future__ import annotations

import time
from typing import Any

from ..checks import load_json
from ..refusal import Refused
from ..wire import PupilMessage, fields_of

__all__ = [
    "MAX_DEPTH",
    "MAX_MESSAGE_BYTES",
    "RateLimit",
    "parse",
]

#: The largest message a pupil's browser may send (a play is about 30 bytes).
MAX_MESSAGE_BYTES = 2048
#: Messages are objects of scalars: {"type": "vote", "agree": true}.
MAX_DEPTH = 1

#: Each message type: its fields with their kinds, and the fields it must carry.
_DECLARED = fields_of(PupilMessage)
FIELDS: dict[str, dict[str, tuple[type, ...]]] = {k: f for k, (f, _) in _DECLARED.items()}
REQUIRED: dict[str, frozenset[str]] = {k: r for k, (_, r) in _DECLARED.items()}
#: Longest string field (a code, a name before tidying, a token, a language).
MAX_STRING = 100


def parse(raw: str | bytes) -> dict[str, Any]:
    """The checked message in ``raw``, else `Refused` ("bad_message", what was wrong)."""
    if isinstance(raw, bytes):
        raise Refused("bad_message", words="class", what="binary frame")
    if len(raw) > MAX_MESSAGE_BYTES:
        raise Refused("bad_message", words="class", what=f"longer than {MAX_MESSAGE_BYTES} bytes")
    try:
        msg = load_json(raw, "a message")
    except ValueError:
        raise Refused("bad_message", words="class", what="not JSON") from None
    if not isinstance(msg, dict):
        raise Refused("bad_message", words="class", what="not an object")
    kind = msg.get("type")
    fields = FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise Refused("bad_message", words="class", what="type")
    for name, value in msg.items():
        if name == "type":
            continue
        kinds = fields.get(name)
        if kinds is None:
            raise Refused(
                "bad_message", words="class", what=f"field {name[:20]}" if _utf8(name) else "field"
            )
        if isinstance(value, bool) and bool not in kinds:
            raise Refused("bad_message", words="class", what=f"field {name}")
        if not isinstance(value, kinds):
            raise Refused("bad_message", words="class", what=f"field {name}")
        if isinstance(value, str) and (len(value) > MAX_STRING or not _utf8(value)):
            if kind == "join" and name == "name" and _utf8(value):  # a pupil's own words
                raise Refused("bad_name", words="class")
            raise Refused("bad_message", words="class", what=f"field {name}")
    for name in sorted(REQUIRED[str(kind)]):
        if name not in msg:
            raise Refused("bad_message", words="class", what=f"field {name}")
    return msg


def _utf8(text: str) -> bool:
    """``text`` is text (JSON's ``"\\ud800"`` gives an unpaired surrogate, which no page
    can show and UTF-8 cannot encode)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class RateLimit:
    """A token bucket: ``burst`` messages at once, then ``rate`` per second."""

    def __init__(self, rate: float = 20.0, burst: float = 40.0, now: Any = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._now = now
        self._tokens = burst
        self._at = now()
        self.refused = 0  # messages refused in a row

    def take(self) -> bool:
        """True if one more message may pass now."""
        at = self._now()
        self._tokens = min(self.burst, self._tokens + (at - self._at) * self.rate)
        self._at = at
        if self._tokens >= 1:
            self._tokens -= 1
            self.refused = 0
            return True
        self.refused += 1
        return False
