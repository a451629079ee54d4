"""The field machinery of the worker's request bodies (`site_builder.contract`): each field
explains its own failure in one message (`{got}` is the value sent), so a broken rule reads the
same whichever of pydantic's checks caught it; names from a closed list are taken in any letter
case."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import (
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, core_schema


def explained(message: str) -> WrapValidator:
    """On any failure of the checks inside, one problem with this message."""

    def wrap(value: Any, inner: ValidatorFunctionWrapHandler) -> Any:
        try:
            return inner(value)
        except ValidationError:
            raise PydanticCustomError("invalid", message.format(got=repr(value))) from None

    return WrapValidator(wrap)


def any_case_pattern(words: Iterable[str]) -> str:
    """An ECMA-262 pattern matching any of the words in any letter case (no inline flags)."""

    def letters(word: str) -> str:
        if not re.fullmatch(r"[A-Za-z0-9_-]+", word):
            raise ValueError(f"only letters, digits, _ and - are supported: {word!r}")
        return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c for c in word)

    return "^(" + "|".join(letters(w) for w in words) + ")$"


@dataclass(frozen=True)
class AnyCase:
    """A name from a closed list in any letter case, validated to its canonical value; the
    schema is a case-blind pattern over the names."""

    names: tuple[tuple[str, Any], ...]  # (name as documented, canonical value)
    message: str  # why a value is refused; `{got}` is the value
    description: str = ""

    def lookup(self, value: Any) -> Any:
        if isinstance(value, str) and value.isascii():  # what the pattern can match
            for name, canonical in self.names:
                if name.lower() == value.lower():
                    return canonical
        raise PydanticCustomError("unknown_name", self.message.format(got=repr(value)))

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        return core_schema.no_info_plain_validator_function(self.lookup)

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        pattern = any_case_pattern(name for name, _ in self.names)
        described = {"description": self.description} if self.description else {}
        return {"type": "string", "pattern": pattern, **described}


def whole(value: Any) -> Any:
    """3.0 is an integer to JSON Schema, and so to us."""
    return int(value) if isinstance(value, float) and value.is_integer() else value
