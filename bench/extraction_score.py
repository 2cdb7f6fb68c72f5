"""The article-extraction-benchmark metric, written from its README.

* tokens: runs of Unicode word characters (``\\w+``), case kept;
* shingles: every run of 4 consecutive tokens, with multiplicity (a text of
  1-3 tokens is one shingle, an empty text none);
* per page: TP = shingles in both (min of the counts), FP = predicted extra,
  FN = missed;
* precision = mean over pages with TP+FP > 0 of TP/(TP+FP), recall = mean
  over pages with TP+FN > 0 of TP/(TP+FN), a page with FP = FN = 0 counts 1
  for both; F1 = 2PR/(P+R) of the two means.

Normalizing TP/FP/FN by their sum (as the README says, so that every page
weighs the same) does not change the per-page ratios, so it is implicit.
Imported by bench/extraction.py and by tests/summarizer/test_extract_quality.py.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

_TOKEN = re.compile(r"\w+")
SHINGLE = 4


def shingles(text: str) -> Counter[tuple[str, ...]]:
    tokens = _TOKEN.findall(text or "")
    if not tokens:
        return Counter()
    if len(tokens) < SHINGLE:
        return Counter([tuple(tokens)])
    return Counter(tuple(tokens[i : i + SHINGLE]) for i in range(len(tokens) - SHINGLE + 1))


@dataclass(frozen=True)
class PageScore:
    tp: int
    fp: int
    fn: int

    @property
    def precision(self) -> float | None:
        if self.fp == 0 and self.fn == 0:
            return 1.0
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        if self.fp == 0 and self.fn == 0:
            return 1.0
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None


def score_page(truth: str, predicted: str) -> PageScore:
    t = shingles(truth)
    p = shingles(predicted)
    tp = sum((t & p).values())
    return PageScore(tp=tp, fp=sum(p.values()) - tp, fn=sum(t.values()) - tp)


@dataclass(frozen=True)
class Summary:
    precision: float
    recall: float
    pages: int

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def summarize(scores: Iterable[PageScore]) -> Summary:
    precisions: list[float] = []
    recalls: list[float] = []
    n = 0
    for s in scores:
        n += 1
        if s.precision is not None:
            precisions.append(s.precision)
        if s.recall is not None:
            recalls.append(s.recall)
    p = sum(precisions) / len(precisions) if precisions else 0.0
    r = sum(recalls) / len(recalls) if recalls else 0.0
    return Summary(precision=p, recall=r, pages=n)
