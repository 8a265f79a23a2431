"""The one refusal every rule and validator raises."""

from __future__ import annotations

from collections.abc import Mapping


class RuleError(ValueError):
    """An action or input the rules refuse.

    ``field`` is the dotted path of what is wrong (``cards.Ben.9``, ``turns.3``), ``message``
    says why in words a player understands (``10 Merchants, but the deck has 9``): the
    English the commands print.

    ``code`` (optional) names the refusal for a translation (the screens show the catalog's
    ``refusal.<code>`` filled with ``params``, in the table's language); ``params`` holds
    plain values: player names, numbers, card kinds as the engine names them.
    """

    def __init__(
        self,
        field: str,
        message: str,
        code: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message
        self.code = code
        self.params = dict(params or {})
