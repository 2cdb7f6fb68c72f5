"""Crawl settings: declared once, with defaults and help, read from TOML and the CLI.

Every setting of ``unob crawl`` is a field of :class:`CrawlSettings`; its
``metadata["help"]`` is the one help text used by ``--help`` (through
:func:`settings_help`) and by ``docs/configuration.md`` (through
:func:`settings_markdown`, checked by a test).  The TOML file uses the field
names as keys; the command line overrides the file and the file overrides the
defaults (DESIGN.md §4).  Seeds are the exception: seeds given on the command
line are *added* to the file's seeds.

Values are validated when loaded: an unknown key, a wrong type or a bad value
raises :class:`~unob.errors.ConfigError` (bad file) or
:class:`~unob.errors.UsageError` (bad command-line value) with one line that
names the file and the key.

This module is imported by ``unob --help``, so it stays light: standard
library and :mod:`unob.urls` only.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import re
import tomllib
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from unob import __version__
from unob.errors import ConfigError, UsageError
from unob.urls import canonicalize, origin_of

__all__ = [
    "DEFAULT_USER_AGENT",
    "CrawlSettings",
    "load_crawl_settings",
    "parse_duration",
    "parse_size",
    "robots_token_of",
    "settings_help",
    "settings_markdown",
]

DEFAULT_USER_AGENT = f"unob/{__version__} (unconfigured; set user_agent to name your project)"

MiB = 1024 * 1024
HOUR = 3600
DAY = 24 * HOUR
WEEK = 7 * DAY
YEAR = 365 * DAY
# SQLite's default SQLITE_MAX_LENGTH (sqlite.org/limits.html): no larger body fits a row.
SQLITE_MAX_LENGTH = 1_000_000_000

# Tracking parameters that never change what a page says; dropping them keeps one
# page from being stored once per newsletter and campaign that linked to it.
DEFAULT_DROP_QUERY_PARAMS = (
    "utm_*",
    "fbclid",
    "gclid",
    "dclid",
    "gbraid",
    "wbraid",
    "msclkid",
    "yclid",
    "mc_cid",
    "mc_eid",
    "_ga",
    "_gl",
    "igshid",
    "PHPSESSID",
    "phpsessid",
    "jsessionid",
    "JSESSIONID",
    "sessionid",
)

ScopeMode = Literal["origin", "host", "domain", "any"]
QueryPolicy = Literal["keep", "drop-listed", "drop-all", "keep-listed"]


def _setting(default: Any, help: str, **extra: Any) -> Any:
    """A dataclass field carrying its help text (and parsing hints) in its metadata."""
    return field(default=default, metadata={"help": help, **extra})


@dataclass(frozen=True, slots=True)
class CrawlSettings:
    """Everything that shapes one ``unob crawl`` run (the database path is not a setting).

    Build it with :func:`load_crawl_settings`; constructing it directly skips
    validation (fine in tests that know their values are good).
    """

    # -- what to crawl -------------------------------------------------------------
    seeds: tuple[str, ...] = _setting(
        (),
        "URLs to start from (http or https). Seeds from the command line are added to the "
        "file's. A resumed crawl needs none: it continues from its frontier.",
    )
    scope: ScopeMode = _setting(  # noqa: RUF009 (returns a dataclasses.field)
        "origin",
        "Which links to follow: 'origin' = the seeds' origins (http and https of a seed "
        "host count as one site), 'host' = the seeds' hosts on any port, 'domain' = the "
        "seeds' hosts and their subdomains, 'any' = every http(s) URL.",
    )
    allowed_origins: tuple[str, ...] = _setting(
        (),
        "Further origins (or URLs on them) that are in scope besides the seeds'.",
    )
    include: tuple[str, ...] = _setting(
        (),
        "Regular expressions (Python re, searched anywhere in the canonical URL); when "
        "given, only URLs matching at least one are crawled. Seeds are always crawled.",
    )
    exclude: tuple[str, ...] = _setting(
        (),
        "Regular expressions (Python re, searched anywhere in the canonical URL); URLs "
        "matching any of them are not crawled. Checked after include.",
    )
    max_depth: int | None = _setting(
        20,
        "Follow links at most this many hops from a seed (0 = seeds only; "
        "'unlimited' in TOML for no limit).",
        min=0,
    )
    max_requests: int | None = _setting(
        None,
        "Stop after this many requests in this run (default: no limit; 0 = only open or "
        "upgrade the database).",
        min=0,
    )
    recrawl_interval_s: int = _setting(
        28 * 86400,
        "A URL crawled successfully is due again after this long (seconds, or a duration "
        "such as '4 weeks', '12h', '30m', '2 days'). At most 10 years.",
        min=0,
        max=10 * YEAR,
        duration=True,
    )
    force_recrawl: bool = _setting(
        False, "Crawl known URLs again now, ignoring the recrawl interval."
    )
    # -- URL hygiene and spider-trap defences --------------------------------------
    query_policy: QueryPolicy = _setting(  # noqa: RUF009 (returns a dataclasses.field)
        "drop-listed",
        "What to do with query parameters: 'keep' all, 'drop-listed' (drop_query_params), "
        "'drop-all', or 'keep-listed' (keep only keep_query_params).",
    )
    drop_query_params: tuple[str, ...] = _setting(
        DEFAULT_DROP_QUERY_PARAMS,
        "Parameter names removed by query_policy 'drop-listed' (exact, case-sensitive; a "
        "trailing '*' matches a prefix, as in 'utm_*').",
    )
    keep_query_params: tuple[str, ...] = _setting(
        (),
        "Parameter names kept by query_policy 'keep-listed' (a trailing '*' matches a prefix).",
    )
    max_url_length: int = _setting(
        2048, "URLs longer than this (in canonical form) are not crawled.", min=16
    )
    max_segment_repeats: int = _setting(
        3,
        "A URL whose path repeats one segment more than this many times (/a/b/a/b/a/b/a) "
        "is taken for a spider trap and not crawled.",
        min=1,
    )
    max_query_params: int = _setting(
        16, "URLs with more query parameters than this are not crawled.", min=0
    )
    max_links_per_page: int = _setting(
        10000, "Only the first this many distinct links of a page are followed.", min=0
    )
    # -- politeness -----------------------------------------------------------------
    delay_ms: int = _setting(
        1000,
        "Minimum wait between two requests to one origin, in ms. 0 turns all waiting off "
        "except what servers ask for (Crawl-delay, Retry-After, 429/503 back-off). "
        "At most 3600000 (1 hour).",
        min=0,
        max=HOUR * 1000,
    )
    concurrency: int = _setting(
        32, "Requests in flight at once, over all origins. At most 10000.", min=1, max=10_000
    )
    per_origin_concurrency: int = _setting(
        1, "Requests in flight at once to one origin. At most 1000.", min=1, max=1000
    )
    user_agent: str = _setting(
        DEFAULT_USER_AGENT,
        "User-Agent header. Name your project and a contact URL, e.g. "
        "'mysearch-crawler/1.0 (+https://example.org/crawler)'.",
    )
    robots_token: str = _setting(
        "",
        "Product token matched against robots.txt user-agent lines and <meta name=...> "
        "(RFC 9309 §2.2.1). Default: the leading letters, '_' and '-' of user_agent.",
    )
    max_crawl_delay_s: float = _setting(
        120.0,
        "Cap on a robots.txt Crawl-delay (seconds or a duration). At most 1 day.",
        min=0,
        max=DAY,
        duration=True,
    )
    max_retry_after_s: float = _setting(
        3600.0,
        "Cap on how long a Retry-After header may pause an origin (seconds or a duration). "
        "At most 1 week.",
        min=0,
        max=WEEK,
        duration=True,
    )
    patience: int = _setting(
        10,
        "Failures (timeouts and connection errors after the one retry, 5xx, 429, "
        "robots.txt unreachable) an origin may cost before it is given up for the run; "
        "each success gives one back.",
        min=1,
    )
    robots_refetch_s: int = _setting(
        1800,
        "robots.txt is fetched again after this long. At most 1 day (RFC 9309 §2.4: a "
        "cached robots.txt should not be used for longer).",
        min=1,
        max=DAY,
        duration=True,
    )
    robots_retry_s: int = _setting(
        300,
        "After robots.txt answered 5xx or was unreachable (everything disallowed), try "
        "it again after this long. At most 1 day.",
        min=1,
        max=DAY,
        duration=True,
    )
    # -- fetching -------------------------------------------------------------------
    connect_timeout_s: float = _setting(
        10.0,
        "Timeout for connecting to a server. At most 1 hour.",
        min=0.001,
        max=HOUR,
        duration=True,
    )
    read_timeout_s: float = _setting(
        30.0,
        "Timeout for each read from a server. At most 1 hour.",
        min=0.001,
        max=HOUR,
        duration=True,
    )
    total_timeout_s: float = _setting(
        120.0,
        "Timeout for a whole request, body included. At most 1 hour.",
        min=0.001,
        max=HOUR,
        duration=True,
    )
    max_body_bytes: int = _setting(
        10 * MiB,
        "Largest page body stored, after decompression (bytes, or a size like '10 MiB'); "
        "larger pages are logged as too_large. At most 1 GB, the largest value SQLite stores.",
        min=1024,
        max=SQLITE_MAX_LENGTH,
        size=True,
    )
    images: bool = _setting(False, "Also fetch and store the images that crawled pages show.")
    images_any_origin: bool = _setting(
        True,
        "With images on: fetch images from any origin (CDNs), not only from in-scope ones.",
    )
    max_image_bytes: int = _setting(
        5 * MiB,
        "Largest image stored (bytes, or a size like '5 MiB'). At most 1 GB, the largest "
        "value SQLite stores.",
        min=1024,
        max=SQLITE_MAX_LENGTH,
        size=True,
    )
    sitemaps: bool = _setting(
        True,
        "Follow the sitemaps that robots.txt names (Sitemap: lines; XML, sitemap indexes, "
        ".xml.gz and text sitemaps): their URLs become candidates under the usual scope, "
        "robots.txt and politeness rules.",
    )
    sitemap_recrawl_interval_s: int = _setting(
        86400,
        "A sitemap is fetched again (conditionally) after this long, instead of "
        "recrawl_interval_s: the <lastmod> dates it lists make the pages that changed "
        "since their last crawl due now (seconds or a duration). At most 10 years.",
        min=0,
        max=10 * YEAR,
        duration=True,
    )
    agent_name: str | None = _setting(
        None, "Name recorded for this crawler process in agent.name (default: host name)."
    )
    time_scale: float = _setting(
        1.0,
        "Multiplies every computed wait; for tests (0.001 = a thousand times faster).",
        min=0,
        hidden=True,
    )

    def as_dict(self) -> dict[str, object]:
        """JSON-ready mapping of every setting (tuples become lists)."""
        return {
            f.name: list(v) if isinstance(v := getattr(self, f.name), tuple) else v
            for f in dataclasses.fields(self)
        }


# Keys of unobtanium's crawl configuration that mean the same as ours, so its
# files keep working (reference/unobtanium.md §6.9).
ALIASES = {
    "default_delay_ms": "delay_ms",
    "max_commands_per_run": "max_requests",
    "recrawl_interval": "recrawl_interval_s",
}

_FIELDS = {f.name: f for f in dataclasses.fields(CrawlSettings)}
_TYPES: dict[str, Any] = typing.get_type_hints(CrawlSettings)
# (slots=True dataclasses keep their defaults only in the field objects)
_DEFAULTS: dict[str, object] = {name: f.default for name, f in _FIELDS.items()}


# ----------------------------------------------------------------------------------
# durations and sizes


_DURATION_UNITS = {
    "s": 1,
    "sec": 1,
    "secs": 1,
    "second": 1,
    "seconds": 1,
    "m": 60,
    "min": 60,
    "mins": 60,
    "minute": 60,
    "minutes": 60,
    "h": 3600,
    "hr": 3600,
    "hrs": 3600,
    "hour": 3600,
    "hours": 3600,
    "d": 86400,
    "day": 86400,
    "days": 86400,
    "w": 7 * 86400,
    "week": 7 * 86400,
    "weeks": 7 * 86400,
    "mo": 30 * 86400,
    "month": 30 * 86400,
    "months": 30 * 86400,
    "y": 365 * 86400,
    "year": 365 * 86400,
    "years": 365 * 86400,
}
_DURATION_PART = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*,?")


def _parse_duration_float(text: str) -> float:
    """Seconds in ``text``; raises ValueError with the reason."""
    text = text.strip().lower()
    if not text:
        raise ValueError("empty duration")
    total = 0.0
    pos = 0
    while pos < len(text):
        match = _DURATION_PART.match(text, pos)
        if not match or match.end() == pos:
            raise ValueError(f"cannot read a duration from {text!r}")
        number, unit = match.groups()
        if unit and unit not in _DURATION_UNITS:
            raise ValueError(f"unknown time unit {unit!r} in {text!r}")
        total += float(number) * _DURATION_UNITS[unit or "s"]
        pos = match.end()
    return total


def parse_duration(text: str) -> int:
    """Whole seconds in a duration such as ``"4 weeks"``, ``"12h"``, ``"1h 30m"``, ``"90"``.

    Units: s, m(in), h(our), d(ay), w(eek), mo(nth) = 30 days, y(ear) = 365 days,
    singular or plural; a bare number is seconds.  ``m`` is minutes, ``mo``
    months.  Raises :class:`~unob.errors.UsageError` for anything else.
    """
    try:
        return round(_parse_duration_float(text))
    except ValueError as exc:
        raise UsageError(f"bad duration: {exc}") from None


_SIZE_UNITS = {
    "": 1,
    "b": 1,
    "k": 1000,
    "kb": 1000,
    "kib": 1024,
    "m": 1000**2,
    "mb": 1000**2,
    "mib": 1024**2,
    "g": 1000**3,
    "gb": 1000**3,
    "gib": 1024**3,
}
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*")


def parse_size(text: str) -> int:
    """Bytes in a size such as ``"10 MiB"``, ``"500kB"``, ``"2048"`` (kB = 1000, KiB = 1024).

    Raises :class:`~unob.errors.UsageError` for anything else.
    """
    match = _SIZE.fullmatch(text)
    unit = match.group(2).lower() if match else None
    if match is None or unit not in _SIZE_UNITS:
        raise UsageError(f"bad size {text!r} (use e.g. '10 MiB', '500 kB' or a number of bytes)")
    return int(float(match.group(1)) * _SIZE_UNITS[unit])


# ----------------------------------------------------------------------------------
# robots token


_TOKEN = re.compile(r"[A-Za-z_-]+")


def robots_token_of(user_agent: str) -> str:
    """The robots.txt product token of a User-Agent: its leading ``[A-Za-z_-]`` run.

    RFC 9309 §2.2.1: the product token contains only letters, ``_`` and ``-``;
    ``"mysearch-crawler/1.0 (+https://x)"`` gives ``"mysearch-crawler"``.
    Returns ``""`` when the user agent does not start with one.
    """
    match = _TOKEN.match(user_agent.strip())
    return match.group(0) if match else ""


# ----------------------------------------------------------------------------------
# loading


class _Invalid(Exception):
    """A bad value; the message completes "<source>: <key>: ..."."""


def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in typing.get_args(tp))
    if origin is tuple:
        return "a list of strings"
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(tp) if a is not type(None)]
        return _type_name(inner[0])
    return {bool: "true or false", int: "an integer", float: "a number", str: "a string"}[tp]


def _coerce(name: str, value: object) -> object:
    """Check ``value`` against the type of setting ``name``; parse durations and sizes."""
    tp = _TYPES[name]
    meta = _FIELDS[name].metadata
    origin = typing.get_origin(tp)
    optional = origin in (typing.Union, types.UnionType)
    if optional:
        tp = next(a for a in typing.get_args(tp) if a is not type(None))
        origin = typing.get_origin(tp)
        if value is None:
            return None
        # TOML has no null: a limit is switched off with a word
        if (
            tp in (int, float)
            and isinstance(value, str)
            and value.strip().lower()
            in (
                "none",
                "unlimited",
            )
        ):
            return None

    if origin is Literal:
        if value not in typing.get_args(tp):
            raise _Invalid(f"must be {_type_name(tp)}, got {value!r}")
        return value
    if origin is tuple:
        if isinstance(value, str) or not isinstance(value, list | tuple):
            raise _Invalid(f"must be a list of strings, got {value!r}")
        if not all(isinstance(v, str) for v in value):
            raise _Invalid(f"must be a list of strings, got {value!r}")
        return tuple(value)
    if tp is bool:
        if not isinstance(value, bool):
            raise _Invalid(f"must be true or false, got {value!r}")
        return value
    if tp is str:
        if not isinstance(value, str):
            raise _Invalid(f"must be a string, got {value!r}")
        return value
    # int or float, possibly written as a duration or size string
    number: float
    if isinstance(value, str) and meta.get("duration"):
        try:
            number = _parse_duration_float(value)
        except ValueError as exc:
            raise _Invalid(str(exc)) from None
    elif isinstance(value, str) and meta.get("size"):
        try:
            number = parse_size(value)
        except UsageError as exc:
            raise _Invalid(str(exc)) from None
    elif isinstance(value, int | float) and not isinstance(value, bool):
        number = value
    else:
        raise _Invalid(f"must be {_type_name(tp)}, got {value!r}")
    if not math.isfinite(number):
        raise _Invalid(f"must be finite, got {value!r}")
    if tp is int:
        if number != int(number) and not meta.get("duration"):
            raise _Invalid(f"must be an integer, got {value!r}")
        number = round(number)
    minimum = meta.get("min")
    if minimum is not None and number < minimum:
        raise _Invalid(f"must be >= {minimum}, got {value!r}")
    # A value past the maximum is surely a slip (a delay of years waits forever in
    # silence, a size SQLite cannot store fails mid-crawl): refused before crawling.
    maximum = meta.get("max")
    if maximum is not None and number > maximum:
        raise _Invalid(f"must be <= {maximum}, got {value!r}")
    return int(number) if tp is int else float(number)


def _check_url_list(values: tuple[str, ...], what: str) -> tuple[str, ...]:
    out: list[str] = []
    for raw in values:
        canonical = canonicalize(raw)
        if canonical is None:
            raise _Invalid(f"{raw!r} is not an http(s) URL{what}")
        if canonical not in out:
            out.append(canonical)
    return tuple(out)


def _validate(values: dict[str, object]) -> None:
    """Cross-field checks and normalization of ``values`` (a full set, in place)."""
    seeds = typing.cast(tuple[str, ...], values["seeds"])
    try:
        values["seeds"] = _check_url_list(seeds, "")
    except _Invalid as exc:
        raise _Invalid(f"seeds: {exc}") from None
    origins: list[str] = []
    for raw in typing.cast(tuple[str, ...], values["allowed_origins"]):
        origin = origin_of(raw)
        if origin is None:
            raise _Invalid(f"allowed_origins: {raw!r} is not an http(s) origin")
        origins.append(origin)
    values["allowed_origins"] = tuple(dict.fromkeys(origins))
    for key in ("include", "exclude"):
        for pattern in typing.cast(tuple[str, ...], values[key]):
            try:
                re.compile(pattern)
            except re.error as exc:
                raise _Invalid(f"{key}: bad regular expression {pattern!r}: {exc}") from None
    user_agent = typing.cast(str, values["user_agent"]).strip()
    if not user_agent or any(c in user_agent for c in "\r\n\0"):
        raise _Invalid("user_agent: must be one non-empty line")
    values["user_agent"] = user_agent
    token = typing.cast(str, values["robots_token"]) or robots_token_of(user_agent)
    if not _TOKEN.fullmatch(token):
        raise _Invalid(
            f"robots_token: {token!r} is not a product token (letters, '_' and '-' only; "
            "RFC 9309 §2.2.1): set robots_token or start user_agent with one"
        )
    values["robots_token"] = token


def _apply(
    values: dict[str, object], given: Mapping[str, object], source: str, error: type[UsageError]
) -> None:
    """Check ``given`` (TOML table or CLI overrides) and merge it into ``values``."""
    seen: dict[str, str] = {}
    for raw_key, value in given.items():
        key = ALIASES.get(raw_key, raw_key)
        if key not in _FIELDS:
            close = difflib.get_close_matches(raw_key, [*_FIELDS, *ALIASES], n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise error(f"{source}: unknown setting {raw_key!r}{hint}")
        if key in seen:
            raise error(f"{source}: {raw_key!r} and {seen[key]!r} set the same thing")
        seen[key] = raw_key
        try:
            coerced = _coerce(key, value)
        except _Invalid as exc:
            raise error(f"{source}: {raw_key}: {exc}") from None
        if key == "seeds" and values["seeds"]:
            # command-line seeds add to the file's (both kept, file's first)
            coerced = (*typing.cast(tuple[str, ...], values["seeds"]), *coerced)  # type: ignore[misc]
        values[key] = coerced


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read config file: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        # TOML files are UTF-8 (toml.io, "Spec"); tomllib decodes before parsing and
        # raises this instead of a TOMLDecodeError.
        bad = exc.object[exc.start : exc.start + 1].hex()
        raise ConfigError(
            f"{path}: invalid TOML: not UTF-8 text (byte 0x{bad} at offset {exc.start})"
        ) from None


def load_crawl_settings(
    config: Path | None, overrides: Mapping[str, object] | None = None
) -> CrawlSettings:
    """Build validated settings: defaults < TOML ``config`` < ``overrides`` (CLI).

    ``overrides`` keys are :class:`CrawlSettings` field names (or unobtanium's
    aliases); a value of ``None`` means "not given" and is skipped, so a CLI
    can pass every option.  Values may be given as in TOML: durations and sizes
    as strings (``"4 weeks"``, ``"10 MiB"``), "unlimited" for no limit.
    Raises :class:`~unob.errors.ConfigError` for a bad file and
    :class:`~unob.errors.UsageError` for a bad override, each one line naming
    the key.
    """
    values = dict(_DEFAULTS)
    source = "command line"
    if config is not None:
        _apply(values, _read_toml(config), str(config), ConfigError)
        source = str(config)
    if overrides:
        given = {k: v for k, v in overrides.items() if v is not None}
        _apply(values, given, "command line", UsageError)
        if given:
            source = f"{source} / command line" if config is not None else "command line"
    try:
        _validate(values)
    except _Invalid as exc:
        error = ConfigError if config is not None else UsageError
        raise error(f"{source}: {exc}") from None
    return CrawlSettings(**values)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------------
# help and docs


def settings_help(name: str) -> str:
    """The help text of setting ``name`` (for ``--help`` and the docs)."""
    return str(_FIELDS[name].metadata["help"])


def _default_text(name: str) -> str:
    default = _DEFAULTS[name]
    if default is None:
        return {"max_depth": "unlimited", "max_requests": "unlimited"}.get(name, "(none)")
    if name == "robots_token":
        return "(from user_agent)"
    if isinstance(default, tuple):
        return "[" + ", ".join(f'"{v}"' for v in default) + "]"
    if isinstance(default, bool):
        return "true" if default else "false"
    if isinstance(default, str):
        return f'"{default}"'
    if name == "recrawl_interval_s":
        return f'{default} ("4 weeks")'
    if name == "sitemap_recrawl_interval_s":
        return f'{default} ("1 day")'
    if isinstance(default, int) and _FIELDS[name].metadata.get("size"):
        return f'{default} ("{default // MiB} MiB")'
    return str(default)


def settings_markdown() -> str:
    """A markdown table of every (non-hidden) setting: key, type, default, meaning.

    ``docs/configuration.md`` embeds this table; a test keeps the two equal.
    """
    rows = ["| key | type | default | meaning |", "|---|---|---|---|"]
    for name, fld in _FIELDS.items():
        if fld.metadata.get("hidden"):
            continue
        tp = _type_name(_TYPES[name])
        if fld.metadata.get("duration"):
            tp += " or duration"
        elif fld.metadata.get("size"):
            tp += " or size"
        elif typing.get_origin(_TYPES[name]) in (typing.Union, types.UnionType):
            tp += ' or "unlimited"' if name.startswith("max_") else " (optional)"
        cells = [f"`{name}`", tp, _default_text(name), fld.metadata["help"]]
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(rows) + "\n"
