"""``BleuScore`` (machine-translation quality) and ``CosineSimilarity`` (pairwise representation similarity)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._metric import Metric, check_num_inputs, rearrange_inputs

__all__ = ["BleuScore", "CosineSimilarity"]


def _ngrams(tokens: Sequence[Any], max_n: int) -> Counter[tuple[Any, ...]]:
    """Counts of every n-gram of ``tokens`` for n = 1..max_n."""
    counts: Counter[tuple[Any, ...]] = Counter()
    for n in range(1, max_n + 1):
        counts.update(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))
    return counts


class BleuScore(Metric):
    """Corpus BLEU: the geometric mean of the clipped 1..``n_gram`` precisions times the brevity penalty.

    Args:
        n_gram: the longest n-gram, 1 to 4.
        smooth: add 1 to every precision's numerator and denominator.

    >>> m = BleuScore()
    >>> m.update([['i', 'have', 'a', 'pen', 'on', 'my', 'desk']],
    ...          [[['i', 'have', 'a', 'pen', 'in', 'my', 'desk'], ['there', 'is', 'a', 'pen', 'on', 'the', 'desk']]])
    >>> round(float(m.eval()), 6)
    0.594604
    """

    def __init__(self, n_gram: int = 4, smooth: bool = False) -> None:
        super().__init__()
        if not isinstance(n_gram, int) or isinstance(n_gram, bool):
            raise TypeError(f"For 'BleuScore', 'n_gram' must be an int, but got {type(n_gram).__name__}.")
        if not 1 <= n_gram <= 4:
            raise ValueError(f"For 'BleuScore', the argument 'n_gram' should range from 1 to 4, but got {n_gram}.")
        if not isinstance(smooth, bool):
            raise TypeError(f"For 'BleuScore', 'smooth' must be a bool, but got {type(smooth).__name__}.")
        self.n_gram, self.smooth = n_gram, smooth
        self.clear()

    def clear(self) -> None:
        """Reset the n-gram counts and corpus lengths."""
        self._matched = np.zeros(self.n_gram)
        self._total = np.zeros(self.n_gram)
        self._cand_len = 0.0
        self._ref_len = 0.0
        self._updated = False

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Inputs: ``candidate_corpus`` (list of token lists) and ``reference_corpus`` (per candidate, a list of
        reference token lists)."""
        check_num_inputs(self, inputs, 2, "(candidate_corpus, reference_corpus)")
        candidates, references = inputs
        if len(candidates) != len(references):
            raise ValueError(f"For 'BleuScore.update', 'candidate_corpus' (inputs[0]) and 'reference_corpus' "
                             f"(inputs[1]) should be equal in length, but got {len(candidates)}, {len(references)}")
        for cand, refs in zip(candidates, references):
            self._cand_len += len(cand)
            # the reference length closest to the candidate's (the first one on ties)
            self._ref_len += min((abs(len(cand) - len(r)), i, len(r)) for i, r in enumerate(refs))[2]
            cand_counts = _ngrams(cand, self.n_gram)
            ref_max: Counter[tuple[Any, ...]] = Counter()
            for ref in refs:
                ref_max |= _ngrams(ref, self.n_gram)
            for gram, count in (cand_counts & ref_max).items():
                self._matched[len(gram) - 1] += count
            for gram, count in cand_counts.items():
                self._total[len(gram) - 1] += count
        self._updated = True

    def eval(self) -> np.ndarray:
        """The BLEU score (0.0 when some n-gram order has no match)."""
        if not self._updated:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        if self._matched.min() == 0.0:
            return np.array(0.0)
        if self.smooth:
            precisions = (self._matched + 1.0) / (self._total + 1.0)
        else:
            precisions = self._matched / self._total
        geo_mean = np.exp(np.sum(np.log(precisions) / self.n_gram))
        if self._cand_len > self._ref_len:
            penalty = np.array(1.0)
        else:
            penalty = np.exp(1 - np.array(self._ref_len) / np.array(self._cand_len))
        return penalty * geo_mean


class CosineSimilarity(Metric):
    """The matrix of pairwise similarities between the rows of the input.

    Args:
        similarity: 'cosine' (rows normalised first) or 'dot'.
        reduction: 'none', 'sum' or 'mean' over the last axis.
        zero_diagonal: set each row's similarity with itself to 0.

    >>> m = CosineSimilarity()
    >>> m.update(np.array([[1, 3, 4, 7], [2, 4, 2, 5], [3, 1, 5, 8]]))
    >>> np.round(m.eval(), 4).tolist()[0]
    [0.0, 0.9403, 0.9516]
    """

    def __init__(self, similarity: str = "cosine", reduction: str = "none", zero_diagonal: bool = True) -> None:
        super().__init__()
        if similarity not in ("dot", "cosine"):
            raise ValueError(f"For 'CosineSimilarity', 'similarity' must be 'dot' or 'cosine', but got {similarity!r}.")
        if reduction not in ("none", "sum", "mean"):
            raise ValueError(f"For 'CosineSimilarity', 'reduction' must be 'none', 'sum' or 'mean', but got "
                             f"{reduction!r}.")
        if not isinstance(zero_diagonal, bool):
            raise TypeError(f"For 'CosineSimilarity', 'zero_diagonal' must be a bool, but got "
                            f"{type(zero_diagonal).__name__}.")
        self.similarity, self.reduction, self.zero_diagonal = similarity, reduction, zero_diagonal
        self.clear()

    def clear(self) -> None:
        """Forget the last update."""
        self.sqr_mtx_res: Any = 0
        self._updated = False

    @rearrange_inputs
    def update(self, inputs: Any) -> None:
        """Input: a 2-D array of row vectors (the last update replaces earlier ones)."""
        data = self._convert_data(inputs)
        if data.ndim != 2:
            raise ValueError(f"For 'CosineSimilarity.update', the input must be 2-D (rows of vectors), but got shape "
                             f"{data.shape}.")
        if self.similarity == "cosine":
            data = data / np.linalg.norm(data, ord=2, axis=1, keepdims=True)
        self.sqr_mtx_res = data @ data.T
        self._updated = True

    def eval(self) -> np.ndarray:
        """The similarity matrix (or its per-row sum / mean)."""
        if not self._updated:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        res = np.array(self.sqr_mtx_res)
        if self.zero_diagonal:
            np.fill_diagonal(res, 0)
        if self.reduction == "mean":
            res = res.mean(axis=-1)
        elif self.reduction == "sum":
            res = res.sum(axis=-1)
        return res
