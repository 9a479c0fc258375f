"""The server's HTTP request bodies, validated by pydantic, the table settings
built from them, and the reasons a body is refused (which never repeat what
was sent: no value, no unknown field name)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from big2.bots import available_bots, make_bot
from big2.rules import OPTIONS, PRESETS, InvalidRulesError, Option, Rules
from big2.server.hygiene import clean_name
from big2.server.tables import TableError, TableSettings

__all__ = ["CreateTable", "JoinTable", "Rematch", "ReviewSeat", "settings_of",
           "validation_errors"]

_OPTION_NAMES = {o.name: o for o in OPTIONS}


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


class ReviewSeat(BaseModel):
    """``POST /api/records/{id}/review``: whose decisions to judge."""

    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int = Field(ge=0, le=7)


class Rematch(BaseModel):
    """``POST /api/tables/{id}/rematch``: the seat token of a player of that table."""

    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200)


def settings_of(body: CreateTable) -> TableSettings:
    """Validated table settings from a create request (:class:`TableError` if bad)."""
    if body.preset not in PRESETS:
        raise TableError(f"unknown preset; choose from: {', '.join(PRESETS)}")
    for k, v in body.options.items():
        if k not in _OPTION_NAMES:
            raise TableError("unknown rule option; see GET /api/options")
        if len(repr(v)) > 200:
            raise TableError(f"the value of option {k} is too long")
        try:
            _OPTION_NAMES[k].check(v)
        except InvalidRulesError:
            raise TableError(_takes(_OPTION_NAMES[k])) from None
    options = {k: v for k, v in body.options.items() if k != "players"}
    if "finish_restrictions" in options and isinstance(options["finish_restrictions"], list):
        options["finish_restrictions"] = tuple(options["finish_restrictions"])
    try:
        rules = Rules.preset(body.preset, players=body.players, **options)
    except (InvalidRulesError, TypeError) as exc:
        # every value has passed its option's check: the reason names options and
        # values of the server's own (choices, true/false, numbers in range) only
        raise TableError(str(exc)[:300]) from None
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
                                 f"{', '.join(available_bots(ready=True))}") from None
    try:
        return TableSettings(rules=rules, seats=tuple(norm), deals=body.deals,
                             turn_time=body.turn_time, name=body.name,
                             private=body.private)
    except ValueError as exc:
        raise TableError(str(exc)) from None


def _takes(option: Option) -> str:
    """What *option* takes, for a refused value (which it does not repeat)."""
    if option.multi:
        what = f"a list of: {', '.join(map(str, option.choices or ()))}"
    elif isinstance(option.default, bool):
        what = "true or false"
    elif isinstance(option.default, int):
        what = f"a whole number from {option.minimum} to {option.maximum}"
    else:
        what = f"one of: {', '.join(map(str, option.choices or ()))}"
    return f"option {option.name} takes {what}"


_FIELD_RULES = {
    "name": "the name must be text of at most 40 characters",
    "preset": "preset must be a preset's name; see GET /api/options",
    "options": f"options must be an object of at most {len(OPTIONS)} rule options",
    "players": "players must be a whole number from 2 to 8",
    "seats": "seats must be a list of at most 8 entries, each null (a person) or a bot's name",
    "deals": "deals must be a whole number from 0 to 100",
    "turn_time": "turn_time must be a number of seconds from 0 to 600",
    "private": "private must be true or false",
    "seat": "seat must be a whole number from 0 to 7",
    "token": "token must be a seat token: text of 1 to 200 characters",
}
_KNOWN = {"body", "query", "path", *_FIELD_RULES}
_PARAMETER_RULES = {
    "find": "find must be text of at most 40 characters",
    "open": "open must be true or false",
    "offset": "offset must be a whole number from 0 to 200",
    "limit": "limit must be a whole number from 1 to 100",
}


def _parameter_error(place: str, err: Any) -> dict[str, Any]:
    """A refused query or path parameter, named only if it is one of the server's own."""
    loc = list(err.get("loc", ()))
    name = loc[1] if len(loc) > 1 and loc[1] in _PARAMETER_RULES else None
    if name is None:
        return {"loc": [place], "msg": f"a {place} parameter is not valid"}
    if err.get("type") == "missing":
        return {"loc": [place, name], "msg": f"the {place} lacks {name}"}
    return {"loc": [place, name], "msg": f"in the {place}: {_PARAMETER_RULES[name]}"}


def validation_errors(errors: Any) -> list[dict[str, Any]]:
    """Where and why a request failed, as ``{"loc", "msg"}`` items (at most 10),
    without the input: a place is named only by the server's own field names
    (an unknown field is not named) and each reason is a fixed sentence."""
    out = []
    for err in errors:
        place = next(iter(err.get("loc", ())), "body")
        if place in ("query", "path"):  # a parameter of the URL, not the body
            out.append(_parameter_error(place, err))
            continue
        loc: list[str | int] = []
        for part in err.get("loc", ()):
            if not (isinstance(part, int) or part in _KNOWN):
                break
            loc.append(part)
        field = next((p for p in reversed(loc) if isinstance(p, str) and p in _FIELD_RULES), None)
        kind = err.get("type", "")
        if kind == "extra_forbidden":
            msg, loc = "the request has a field it does not take", loc[:1]
        elif kind == "json_invalid":
            msg, loc = "the body is not valid JSON", loc[:1]
        elif kind == "missing":
            msg = f"{field} is missing" if field else "the body is missing"
        elif field is None:
            msg = "the body must be a JSON object"
        elif kind == "value_error":  # the validators' own fixed reasons
            msg = str(err.get("msg", "")).removeprefix("Value error, ")[:200]
        else:
            msg = _FIELD_RULES[field]
        out.append({"loc": [str(p) for p in loc[:4]], "msg": msg})
    return out[:10]
