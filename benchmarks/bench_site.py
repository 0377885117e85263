"""The reference site's latency, over HTTP, beside the GraphQL page it mirrors.

Given a running server and researcher ids, measures p50/p99 of

* ``researcher_html``: the researcher page, ``/researchers/<id>`` as HTML (the canonical
  address; the redirect from the bare id is not timed);
* ``researcher_json``: the same page as JSON;
* ``graphql_page``: the GraphQL page query of :mod:`benchmarks.bench_api`, in turn with
  ``researcher_html`` (``researcher_paired``), so that a drift of the machine's speed weighs
  on both alike;
* ``paper_html``: the page of a paper of each researcher;
* ``not_modified``: the researcher page asked again with its ``ETag`` (a ``304``).

Prints JSON; the targets are researcher page HTML p50 ≤ 20 ms and p99 ≤ 60 ms.

    python -m benchmarks.bench_site --url http://127.0.0.1:8000 --ids 2004394,2004396
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import httpx

from benchmarks.bench_api import PAGE, percentiles, researcher_ids, side_by_side, timed

HTML = {"accept": "text/html"}
JSON = {"accept": "application/json"}


async def canonical_paths(client: httpx.AsyncClient, ids: Sequence[int]) -> dict[int, str]:
    """Each researcher's canonical page, from the redirect of its bare id."""
    found = {}
    for researcher in ids:
        response = await client.get(f"/researchers/{researcher}", headers=HTML)
        if response.status_code == 301:
            found[researcher] = httpx.URL(response.headers["location"]).raw_path.decode()
        elif response.status_code == 200:
            found[researcher] = f"/researchers/{researcher}"
    return found


async def paper_paths(client: httpx.AsyncClient, pages: Sequence[str]) -> list[str]:
    papers = []
    for path in pages:
        data = (await client.get(path, headers=JSON)).json()
        papers += [httpx.URL(p["url"]).raw_path.decode() for p in data["papers"]["items"][:1]]
    return papers


async def get(client: httpx.AsyncClient, path: str, headers: dict[str, str]) -> None:
    response = await client.get(path, headers=headers)
    if response.status_code not in (200, 304):
        raise RuntimeError(f"{path} answered {response.status_code}")


async def run(
    url: str, ids: Sequence[int], *, requests: int = 300, warmup: float = 20.0, seed: int = 0
) -> dict[str, Any]:
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        pages = await canonical_paths(client, ids)
        if len(pages) < 2:
            raise SystemExit("fewer than two of the ids have a page")
        paths = list(pages.values())
        papers = await paper_paths(client, paths[: min(len(paths), 100)])
        tags = {}
        for path in paths[:50]:
            tags[path] = (await client.get(path, headers=HTML)).headers.get("etag", "")

        def page(headers: dict[str, str]) -> Callable[[], Awaitable[None]]:
            return lambda: get(client, rng.choice(paths), headers)

        async def graphql() -> None:
            researcher = rng.choice(list(pages))
            response = await client.post(
                "/graphql", json={"query": PAGE, "variables": {"id": str(researcher)}}
            )
            if response.status_code != 200 or response.json().get("errors"):
                raise RuntimeError(f"the GraphQL page failed: {response.text[:300]}")

        async def paper() -> None:
            await get(client, rng.choice(papers), HTML)

        async def unchanged() -> None:
            path = rng.choice(list(tags))
            await get(client, path, {**HTML, "if-none-match": tags[path]})

        began = time.perf_counter()
        while time.perf_counter() - began < warmup:
            await side_by_side(page(HTML), graphql, 10)
            await timed(paper, 5)
        html = await timed(page(HTML), requests)
        paired, twin = await side_by_side(page(HTML), graphql, requests)
        results: dict[str, Any] = {
            "researchers": len(pages),
            "researcher_html": percentiles(html),
            "researcher_paired": percentiles(paired),
            "graphql_page": percentiles(twin),
            "researcher_json": percentiles(await timed(page(JSON), requests)),
            "paper_html": percentiles(await timed(paper, requests)) if papers else None,
            "not_modified": percentiles(await timed(unchanged, requests)),
        }
        results["html_over_graphql_p50"] = round(
            results["researcher_paired"]["p50_ms"] / max(results["graphql_page"]["p50_ms"], 1e-9),
            2,
        )
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--ids", help="researcher ids, comma or space separated")
    parser.add_argument("--ids-file", help="a file of researcher ids")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--warmup", type=float, default=20.0, help="seconds of warm-up")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    results = asyncio.run(
        run(
            args.url,
            researcher_ids(args),
            requests=args.requests,
            warmup=args.warmup,
            seed=args.seed,
        )
    )
    json.dump(results, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
