r"""Text to numbers: the bag-of-words (词袋) representation, NumPy only.

A document becomes the vector of how often each word of a vocabulary (词表)
occurs in it; the order of the words is lost. :func:`bag_of_words` builds the
vocabulary from the training documents and counts, or counts with a given
vocabulary (the test documents must use the training vocabulary, so that a
column means the same word in both).

See the chapter "Generative models and naive Bayes", section "A text example".
"""

from __future__ import annotations

import numbers
import re
from typing import Any

import numpy as np

from ._validation import check_bool, check_scalar

__all__ = ["bag_of_words", "tokenize"]

#: A word: two or more letters, digits or underscores (scikit-learn's default token).
_TOKEN = re.compile(r"(?u)\b\w\w+\b")


def tokenize(document: str, lowercase: bool = True) -> list[str]:
    """The words of one document, in order: runs of two or more word characters.

    >>> tokenize("Win $1,000 NOW -- click here!")
    ['win', '000', 'now', 'click', 'here']
    """
    check_bool(lowercase, "lowercase")
    if not isinstance(document, str):
        raise TypeError(f"document must be a string; got {type(document).__name__}")
    return _TOKEN.findall(document.lower() if lowercase else document)


def _check_documents(documents: Any) -> list[str]:
    if isinstance(documents, (str, bytes)):
        raise TypeError("documents must be a sequence of strings (one per document), not a "
                        "single string")
    try:
        docs = list(documents)
    except TypeError:
        raise TypeError(f"documents must be a sequence of strings; got "
                        f"{type(documents).__name__}") from None
    if not docs:
        raise ValueError("documents is empty: need at least one document")
    for i, d in enumerate(docs):
        if not isinstance(d, str):
            raise TypeError(f"documents[{i}] must be a string; got {type(d).__name__}")
    return docs


def bag_of_words(documents: Any, vocabulary: Any = None, min_df: int | float = 1,
                 max_features: int | None = None, binary: bool = False,
                 lowercase: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Count the words of each document: the document-term matrix and its vocabulary.

    Parameters
    ----------
    documents : sequence of str
        One string per document.
    vocabulary : sequence of str or None, default=None
        The words to count, column by column (other words are ignored). None:
        build the vocabulary from ``documents``, sorted, keeping the words that
        pass ``min_df`` and ``max_features``.
    min_df : int >= 1 or float in (0, 1], default=1
        Keep a word only if it occurs in at least this many documents (an int)
        or this fraction of them (a float). Only when ``vocabulary`` is None.
    max_features : int >= 1 or None, default=None
        Keep only the ``max_features`` words with the largest column sums of
        the matrix returned (total counts; with ``binary=True``, document
        frequencies), after ``min_df``; ties go to the word first in
        alphabetical order. Only when ``vocabulary``
        is None.
    binary : bool, default=False
        1 if the word occurs in the document, 0 if not, instead of its count.
    lowercase : bool, default=True
        Lower-case the documents before splitting them into words.

    Returns
    -------
    counts : ndarray of shape (n_documents, n_words), float64
        ``counts[i, j]``: how often word ``vocabulary[j]`` occurs in document
        ``i``.
    vocabulary : ndarray of str, shape (n_words,)

    Notes
    -----
    A word is a run of two or more letters, digits or underscores
    (:func:`tokenize`). With these defaults the result equals scikit-learn's
    ``CountVectorizer(min_df=..., max_features=..., binary=...)`` (which
    breaks ties at the ``max_features`` boundary in no fixed order).
    The matrix is dense: keep the vocabulary to a few thousand words
    (``min_df``, ``max_features``) on a corpus of thousands of documents.

    Examples
    --------
    >>> X, vocab = bag_of_words(["the cat sat", "the cat and the hat"])
    >>> vocab.tolist()
    ['and', 'cat', 'hat', 'sat', 'the']
    >>> X.astype(int).tolist()
    [[0, 1, 0, 1, 1], [1, 1, 1, 0, 2]]
    >>> bag_of_words(["a hat, a HAT"], vocabulary=vocab)[0].astype(int).tolist()
    [[0, 0, 2, 0, 0]]
    """
    docs = _check_documents(documents)
    check_bool(binary, "binary")
    check_bool(lowercase, "lowercase")
    tokens = [tokenize(d, lowercase) for d in docs]
    lengths = np.array([len(t) for t in tokens], dtype=np.intp)
    doc_of = np.repeat(np.arange(len(docs)), lengths)
    n = len(docs)
    if vocabulary is None:
        if isinstance(min_df, numbers.Integral) and not isinstance(min_df, bool):
            check_scalar(min_df, "min_df", numbers.Integral, min_val=1)
            min_count = int(min_df)
        else:
            check_scalar(min_df, "min_df", numbers.Real, min_val=0.0, max_val=1.0,
                         include_min=False)
            min_count = float(min_df) * n
        if max_features is not None:
            check_scalar(max_features, "max_features", numbers.Integral, min_val=1)
        # words to integer ids in order of first appearance (a dict: strings are not
        # NumPy's strength), then the rank of each word in alphabetical order
        index: dict[str, int] = {}
        term = np.fromiter((index.setdefault(w, len(index)) for t in tokens for w in t),
                           dtype=np.intp, count=int(lengths.sum()))
        words = list(index)
        V = len(words)
        alphabetical = np.array(sorted(range(V), key=words.__getitem__), dtype=np.intp)
        rank = np.empty(V, dtype=np.intp)
        rank[alphabetical] = np.arange(V)
        term = rank[term]                                  # ids in alphabetical order
        pairs = np.unique(doc_of * V + term) if term.size else np.empty(0, np.intp)
        df = np.bincount(pairs % V, minlength=V) if V else np.zeros(0, np.intp)
        keep = np.flatnonzero(df >= min_count)
        if keep.size == 0:
            raise ValueError(
                "no word is left for the vocabulary: " + (
                    f"none of the {V} words occurs in at least min_df={min_df!r} "
                    + ("documents" if isinstance(min_df, numbers.Integral) else
                       "(a fraction) of the documents") + "; lower min_df" if V else
                    "the documents hold no word (a run of two or more letters, digits or "
                    "underscores)"))
        if max_features is not None and keep.size > max_features:
            # the largest column sums of the matrix returned: counts, or with binary=True
            # document frequencies (as scikit-learn)
            tf = (df if binary else np.bincount(term, minlength=V))[keep]
            keep = np.sort(keep[np.argsort(-tf, kind="stable")[:max_features]])
        new = np.full(V, -1, dtype=np.intp)
        new[keep] = np.arange(keep.size)
        vocab = np.array([words[i] for i in alphabetical[keep]], dtype=str)
        term = new[term]
    else:
        if min_df != 1 or max_features is not None:
            raise ValueError("min_df and max_features choose the words of a new vocabulary; "
                             "with a given vocabulary leave them at 1 and None")
        vocab = np.asarray(vocabulary)
        if vocab.ndim != 1 or (vocab.size and vocab.dtype.kind not in "UO"):
            raise TypeError("vocabulary must be a 1-d sequence of strings")
        if vocab.size == 0:
            raise ValueError("vocabulary is empty: give at least one word to count")
        vocab = vocab.astype(str)
        column = {w: j for j, w in enumerate(vocab.tolist())}
        if len(column) != vocab.shape[0]:
            raise ValueError("vocabulary holds a word twice; each word must be one column")
        term = np.fromiter((column.get(w, -1) for t in tokens for w in t), dtype=np.intp,
                           count=int(lengths.sum()))
    V = vocab.shape[0]
    known = term >= 0
    counts = np.bincount(doc_of[known] * V + term[known], minlength=n * V)
    counts = counts.reshape(n, V).astype(np.float64)
    if binary:
        counts = (counts > 0).astype(np.float64)
    return counts, vocab
