"""Crawl settings: defaults, TOML, CLI overrides, validation, durations, docs table."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from unob.errors import ConfigError, UsageError
from unob.settings import (
    CrawlSettings,
    load_crawl_settings,
    parse_duration,
    parse_size,
    robots_token_of,
    settings_help,
    settings_markdown,
)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"


def _toml(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "crawl.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults() -> None:
    s = load_crawl_settings(None, {})
    assert s == load_crawl_settings(None, None)
    assert s.seeds == ()
    assert (s.delay_ms, s.concurrency, s.per_origin_concurrency) == (1000, 32, 1)
    assert s.max_depth == 20 and s.max_requests is None
    assert s.recrawl_interval_s == 28 * 86400
    assert s.robots_refetch_s == 1800 and s.patience == 10
    assert s.user_agent.startswith("unob/") and s.robots_token == "unob"
    assert s.images is False and s.force_recrawl is False


def test_file_beats_defaults_and_cli_beats_file(tmp_path: Path) -> None:
    config = _toml(
        tmp_path,
        """
        seeds = ["https://Example.org/docs/"]
        delay_ms = 250
        concurrency = 8
        max_depth = "unlimited"
        recrawl_interval_s = "2 days"
        max_body_bytes = "2 MiB"
        exclude = ['\\.pdf$']
        user_agent = "mysearch-crawler/1.0 (+https://example.org/bot)"
        """,
    )
    s = load_crawl_settings(config, {"concurrency": 4, "delay_ms": None})
    assert s.seeds == ("https://example.org/docs/",)  # canonicalized
    assert s.delay_ms == 250  # None in overrides = not given
    assert s.concurrency == 4
    assert s.max_depth is None
    assert s.recrawl_interval_s == 2 * 86400
    assert s.max_body_bytes == 2 * 1024 * 1024
    assert s.exclude == (r"\.pdf$",)
    assert s.robots_token == "mysearch-crawler"


def test_command_line_seeds_add_to_the_files(tmp_path: Path) -> None:
    config = _toml(tmp_path, 'seeds = ["http://a.example/", "http://b.example/"]')
    s = load_crawl_settings(config, {"seeds": ("http://c.example/", "http://A.example")})
    assert s.seeds == ("http://a.example/", "http://b.example/", "http://c.example/")


def test_unobtanium_keys_are_aliases(tmp_path: Path) -> None:
    config = _toml(
        tmp_path,
        'default_delay_ms = 1500\nmax_commands_per_run = 100\nrecrawl_interval = "4 weeks"\n',
    )
    s = load_crawl_settings(config, {})
    assert (s.delay_ms, s.max_requests, s.recrawl_interval_s) == (1500, 100, 28 * 86400)
    both = _toml(tmp_path, "delay_ms = 1\ndefault_delay_ms = 2\n")
    with pytest.raises(ConfigError, match="set the same thing"):
        load_crawl_settings(both, {})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("concurency = 3", "unknown setting 'concurency' (did you mean 'concurrency'?)"),
        ('concurrency = "many"', "concurrency: must be an integer"),
        ("concurrency = 0", "concurrency: must be >= 1"),
        ("concurrency = 2.5", "concurrency: must be an integer"),
        ("concurrency = true", "concurrency: must be an integer"),
        ("delay_ms = -1", "delay_ms: must be >= 0"),
        ('seeds = "http://x.example/"', "seeds: must be a list of strings"),
        ('seeds = ["ftp://x.example/"]', "seeds: 'ftp://x.example/' is not an http(s) URL"),
        ('seeds = ["not a url"]', "is not an http(s) URL"),
        ('scope = "planet"', "scope: must be one of 'origin', 'host', 'domain', 'any'"),
        ('query_policy = "sometimes"', "query_policy: must be one of"),
        ('exclude = ["(unclosed"]', "exclude: bad regular expression '(unclosed'"),
        ('recrawl_interval_s = "3 fortnights"', "unknown time unit 'fortnights'"),
        ('max_body_bytes = "lots"', "bad size 'lots'"),
        ("max_body_bytes = 10", "max_body_bytes: must be >= 1024"),
        ('user_agent = "Mozilla/5.0\\nX-Evil: 1"', "user_agent: must be one non-empty line"),
        ('user_agent = "(no token)"', "robots_token: '' is not a product token"),
        ('robots_token = "my bot"', "robots_token: 'my bot' is not a product token"),
        ('allowed_origins = ["mailto:x@y"]', "allowed_origins: 'mailto:x@y' is not"),
        ("images = 1", "images: must be true or false"),
        ("this is = not toml", "invalid TOML"),
        # maxima: a value past one is surely a slip
        ("delay_ms = 99999999999999999999", "delay_ms: must be <= 3600000"),
        ("delay_ms = 3600001", "delay_ms: must be <= 3600000"),
        ("concurrency = 1000000", "concurrency: must be <= 10000"),
        ("per_origin_concurrency = 5000", "per_origin_concurrency: must be <= 1000"),
        ('recrawl_interval_s = "20 years"', "recrawl_interval_s: must be <= 315360000"),
        ('sitemap_recrawl_interval_s = "11 years"', "must be <= 315360000"),
        ('max_crawl_delay_s = "2 days"', "max_crawl_delay_s: must be <= 86400"),
        ('max_retry_after_s = "8 days"', "max_retry_after_s: must be <= 604800"),
        ('robots_refetch_s = "25h"', "robots_refetch_s: must be <= 86400"),
        ('robots_retry_s = "2 days"', "robots_retry_s: must be <= 86400"),
        ("connect_timeout_s = 1e300", "connect_timeout_s: must be <= 3600"),
        ('read_timeout_s = "2h"', "read_timeout_s: must be <= 3600"),
        ('total_timeout_s = "1 year"', "total_timeout_s: must be <= 3600"),
        ('max_body_bytes = "2 GiB"', "max_body_bytes: must be <= 1000000000"),
        ('max_image_bytes = "1 GiB"', "max_image_bytes: must be <= 1000000000"),
    ],
)
def test_bad_files_give_one_line_naming_file_and_key(
    tmp_path: Path, text: str, message: str
) -> None:
    config = _toml(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_crawl_settings(config, {})
    line = str(info.value)
    assert "\n" not in line
    assert line.startswith(str(config))
    assert message in line


def test_missing_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read config file"):
        load_crawl_settings(tmp_path / "nope.toml", {})


def test_bad_command_line_values_are_usage_errors_not_config_errors() -> None:
    with pytest.raises(UsageError, match="command line: concurrency: must be >= 1") as info:
        load_crawl_settings(None, {"concurrency": 0})
    assert not isinstance(info.value, ConfigError)
    with pytest.raises(UsageError, match="seeds: 'javascript:alert' is not an http"):
        load_crawl_settings(None, {"seeds": ("javascript:alert",)})
    with pytest.raises(UsageError, match="unknown setting 'bogus'"):
        load_crawl_settings(None, {"bogus": 1})


def test_zero_delay_and_zero_requests_are_allowed() -> None:
    s = load_crawl_settings(None, {"delay_ms": 0, "max_requests": 0, "max_depth": 0})
    assert (s.delay_ms, s.max_requests, s.max_depth) == (0, 0, 0)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("4 weeks", 28 * 86400),
        ("12h", 12 * 3600),
        ("30m", 1800),
        ("2 days", 2 * 86400),
        ("1 day", 86400),
        ("90", 90),
        ("1h 30m", 5400),
        ("1h30m", 5400),
        ("1 hour, 15 minutes", 4500),
        ("1.5 days", 129600),
        ("2 months", 60 * 86400),
        ("1 year", 365 * 86400),
        ("0", 0),
        ("  10 SECONDS ", 10),
    ],
)
def test_parse_duration(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "weeks", "4 fortnights", "-3h", "1h and 2m", "h1"])
def test_parse_duration_rejects(text: str) -> None:
    with pytest.raises(UsageError, match="bad duration"):
        parse_duration(text)


@pytest.mark.parametrize(
    ("text", "size"),
    [("2048", 2048), ("10 MiB", 10 * 2**20), ("500kB", 500_000), ("1.5 KiB", 1536)],
)
def test_parse_size(text: str, size: int) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize(
    ("user_agent", "token"),
    [
        ("unob/0.1.0 (+https://x)", "unob"),
        ("mysearch-crawler (for https://example.org)", "mysearch-crawler"),
        ("My_Bot", "My_Bot"),
        ("  spaced/1", "spaced"),
        ("42bot", ""),
    ],
)
def test_robots_token_of(user_agent: str, token: str) -> None:
    assert robots_token_of(user_agent) == token


def test_explicit_robots_token_wins() -> None:
    s = load_crawl_settings(None, {"user_agent": "Mozilla/5.0 (Foo)", "robots_token": "foo"})
    assert s.robots_token == "foo"


def test_every_setting_has_help_and_serializes() -> None:
    s = load_crawl_settings(None, {"seeds": ("http://a.example/",)})
    for field in dataclasses.fields(CrawlSettings):
        assert len(settings_help(field.name)) > 20, field.name
    data = json.loads(json.dumps(s.as_dict()))
    assert data["seeds"] == ["http://a.example/"]
    assert set(data) == {f.name for f in dataclasses.fields(CrawlSettings)}


def test_a_full_dump_loads_back(tmp_path: Path) -> None:
    s = load_crawl_settings(None, {"seeds": ("http://a.example/",), "max_depth": 3})
    lines = []
    for key, value in s.as_dict().items():
        if value is not None:
            lines.append(f"{key} = {json.dumps(value)}")
    assert load_crawl_settings(_toml(tmp_path, "\n".join(lines)), {}) == s


def test_docs_configuration_has_the_current_table() -> None:
    table = settings_markdown()
    assert table in DOCS.read_text(encoding="utf-8"), (
        "docs/configuration.md is out of date: run python -m unob.docgen"
    )
    for field in dataclasses.fields(CrawlSettings):
        if not field.metadata.get("hidden"):
            assert f"| `{field.name}` |" in table


def test_unlimited_is_a_word_for_limits_only() -> None:
    s = load_crawl_settings(None, {"max_requests": "unlimited", "agent_name": "none"})
    assert s.max_requests is None
    assert s.agent_name == "none"


def test_maxima_themselves_are_accepted_and_flags_are_checked_too(tmp_path: Path) -> None:
    text = 'delay_ms = 3600000\nconcurrency = 10000\nrobots_refetch_s = "1 day"\n'
    settings = load_crawl_settings(_toml(tmp_path, text), {})
    assert (settings.delay_ms, settings.concurrency, settings.robots_refetch_s) == (
        3_600_000,
        10_000,
        86_400,
    )
    with pytest.raises(UsageError, match="command line: delay_ms: must be <= 3600000") as info:
        load_crawl_settings(None, {"delay_ms": 99999999999999999999})
    assert not isinstance(info.value, ConfigError)
