"""The one refusal every rule and validator raises."""

from __future__ import annotations


class RuleError(ValueError):
    """An action or input the rules refuse.

    ``field`` is the dotted path of what is wrong (``cards.Ben.9``, ``turns.3``), ``message``
    says why in words a player understands (``10 Merchants, but the deck has 9``).
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message
