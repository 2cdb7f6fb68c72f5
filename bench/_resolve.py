"""Bench-only fake DNS for the bare loop: the synthetic site's names mean 127.0.0.1.

Every other name is refused, so the benchmark can never send traffic off the
machine.  (unob gets the same mapping from its own ``--resolve '*:127.0.0.1'``.)
"""

from __future__ import annotations

import ipaddress
import socket

from aiohttp.abc import AbstractResolver, ResolveResult

from _synthetic import DOMAIN

LOOPBACK = "127.0.0.1"


def maps_to_loopback(host: str) -> bool:
    """True for names of the synthetic site and for loopback literals."""
    host = host.rstrip(".").lower()
    if host == DOMAIN or host.endswith("." + DOMAIN) or host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class LoopbackResolver(AbstractResolver):
    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        if not maps_to_loopback(host):
            raise OSError(f"bench resolver refuses {host!r}: only loopback names are allowed")
        return [
            ResolveResult(
                hostname=host,
                host=LOOPBACK,
                port=port,
                family=socket.AF_INET,
                proto=0,
                flags=socket.AI_NUMERICHOST,
            )
        ]

    async def close(self) -> None:
        return None
