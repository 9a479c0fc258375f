"""The server's HTTP request bodies, validated by pydantic, and the table settings
built from them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from big2.bots import available_bots, make_bot
from big2.rules import OPTIONS, PRESETS, InvalidRulesError, Rules
from big2.server.hygiene import clean_name
from big2.server.tables import TableError, TableSettings

_OPTION_NAMES = {o.name for o in OPTIONS}


class CreateTable(BaseModel):
    """``POST /api/tables``."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field("Big Two", max_length=40)
    preset: str = Field("classic", max_length=40)
    options: dict[str, Any] = Field(default_factory=dict, max_length=len(OPTIONS))
    players: int = Field(4, ge=2, le=8)
    seats: list[str | None] | None = Field(None, max_length=8)
    deals: int = Field(0, ge=0, le=100)
    turn_time: float = Field(0, ge=0, le=600)
    private: bool = False

    @field_validator("name")
    @classmethod
    def _clean(cls, name: str) -> str:
        return clean_name(name, limit=40, bots_ok=True) or "Big Two"


class JoinTable(BaseModel):
    """``POST /api/tables/{id}/join``."""

    model_config = ConfigDict(extra="forbid")
    seat: int = Field(ge=0, le=7)
    name: str = Field("", max_length=40)

    @field_validator("name")
    @classmethod
    def _clean(cls, name: str) -> str:
        return clean_name(name)


def settings_of(body: CreateTable) -> TableSettings:
    """Validated table settings from a create request (:class:`TableError` if bad)."""
    if body.preset not in PRESETS:
        raise TableError(f"unknown preset; choose from: {', '.join(PRESETS)}")
    for k, v in body.options.items():
        if k not in _OPTION_NAMES:
            raise TableError("unknown rule option; see GET /api/options")
        if len(repr(v)) > 200:
            raise TableError(f"option {k}: value too long")
    options = {k: v for k, v in body.options.items() if k != "players"}
    if "finish_restrictions" in options and isinstance(options["finish_restrictions"], list):
        options["finish_restrictions"] = tuple(options["finish_restrictions"])
    try:
        rules = Rules.preset(body.preset, players=body.players, **options)
    except (InvalidRulesError, TypeError) as exc:
        raise TableError(_unechoed(str(exc), list(options.values()))[:300]) from None
    seats = body.seats if body.seats is not None else [None] + ["medium"] * (body.players - 1)
    if len(seats) != body.players:
        raise TableError(f"{body.players} seats needed, got {len(seats)}")
    norm = [None if s in (None, "", "human", "person") else s for s in seats]
    for i, s in enumerate(norm):
        if s is not None:
            try:
                make_bot(s)
            except ValueError:
                raise TableError(f"seat {i}: unknown bot; choose from: "
                                 f"{', '.join(available_bots())}") from None
    try:
        return TableSettings(rules=rules, seats=tuple(norm), deals=body.deals,
                             turn_time=body.turn_time, name=body.name,
                             private=body.private)
    except ValueError as exc:
        raise TableError(str(exc)) from None




def _unechoed(message: str, values: list[Any]) -> str:
    """*message* with any of the *values* sent replaced: errors never repeat input."""
    for v in sorted(values, key=lambda v: -len(repr(v))):
        for text in (repr(v), repr(tuple(v)) if isinstance(v, list) else "", str(v)):
            if len(text) >= 2:
                message = message.replace(text, "the value sent")
    return message
