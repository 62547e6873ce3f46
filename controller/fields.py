"""Field types of the JSON APIs shared by the table's web service and the club service (both
refuse a player's name with control characters, and JSON ``true`` where a number is asked)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, Field


def not_bool(value: Any) -> Any:
    """JSON true is not the number 1 (pydantic's lax mode would take it)."""
    if isinstance(value, bool):
        raise ValueError("a number, not true or false")
    return value


#: A number field that refuses true and false: ``Annotated[int, Field(...), NOT_BOOL]``.
NOT_BOOL = BeforeValidator(not_bool)
#: A player's name: 1-40 characters, no control characters.
PersonName = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[^\x00-\x1f\x7f]+$")]
