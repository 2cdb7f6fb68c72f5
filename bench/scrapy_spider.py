"""Scrapy's side of the crawl benchmark: a CrawlSpider with a LinkExtractor.

Run as its own process by ``crawl.py``:
``python bench/scrapy_spider.py URL --concurrency 16 --stats-out stats.json``.
Configured as a user would to crawl one site fast: robots.txt obeyed (the bench
robots.txt allows all, as for unob), no download delay, no AutoThrottle, the
per-domain limit equal to the global one (one site), links restricted to the
start URL's host.  Writes Scrapy's stats as JSON when the crawl ends.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from scrapy.crawler import CrawlerProcess
from scrapy.http import Response
from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule


def make_spider(start_url: str) -> type[CrawlSpider]:
    parts = urlsplit(start_url)
    host = parts.hostname or ""

    class SiteSpider(CrawlSpider):
        name = "bench_site"
        # LinkExtractor compares allow_domains with the netloc, port included;
        # the offsite middleware compares allowed_domains with the bare host.
        rules = (
            Rule(LinkExtractor(allow_domains=[parts.netloc]), callback="parse_page", follow=True),
        )

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self.allowed_domains = [host]
            self.start_urls = [start_url]
            super().__init__(*args, **kwargs)

        def parse_start_url(self, response: Response, **kwargs: Any) -> Iterator[Any]:
            return self.parse_page(response)

        def parse_page(self, response: Response) -> Iterator[Any]:
            # No items: the benchmark measures crawling (fetch, parse, follow).
            self.crawler.stats.inc_value("bench/pages")
            return iter(())

    return SiteSpider


def settings(concurrency: int, pages_limit: int) -> dict[str, Any]:
    return {
        "ROBOTSTXT_OBEY": True,
        "CONCURRENT_REQUESTS": concurrency,
        "CONCURRENT_REQUESTS_PER_DOMAIN": concurrency,
        "DOWNLOAD_DELAY": 0,
        "AUTOTHROTTLE_ENABLED": False,
        "HTTPCACHE_ENABLED": False,
        # The cookies middleware asks tldextract for the public suffix list,
        # which it downloads on first use: a benchmark sends nothing off-box.
        "COOKIES_ENABLED": False,
        # Neither the telnet console nor the remote-control server: no listening
        # sockets beyond what is measured.
        "TELNETCONSOLE_ENABLED": False,
        "REMOTE_CONTROL_ENABLED": False,
        "CLOSESPIDER_PAGECOUNT": pages_limit,
        "USER_AGENT": "unob-bench-scrapy",
        "LOG_LEVEL": "INFO",
        "LOGSTATS_INTERVAL": 10.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("start_url")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--pages-limit", type=int, default=0, help="stop after N responses")
    parser.add_argument("--stats-out", type=Path, required=True)
    args = parser.parse_args()

    process = CrawlerProcess(settings(args.concurrency, args.pages_limit))
    crawler = process.create_crawler(make_spider(args.start_url))
    process.crawl(crawler)
    process.start()
    assert crawler.stats is not None
    stats = crawler.stats.get_stats()
    args.stats_out.write_text(json.dumps(stats, default=str, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
