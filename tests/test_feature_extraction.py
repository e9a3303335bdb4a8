"""mlbook.feature_extraction.bag_of_words: against scikit-learn's CountVectorizer, and bad input."""

import numpy as np
import pytest

from mlbook.datasets import load_spam
from mlbook.feature_extraction import bag_of_words, tokenize

text = pytest.importorskip("sklearn.feature_extraction.text")

DOCS = ["The cat sat on the mat.", "The dog ate the cat's food!", "A cat, a dog; 2 cats.",
        "Ünïcode wörds and the CAT"]


@pytest.mark.parametrize("kw", [{}, {"min_df": 2}, {"min_df": 0.02}, {"binary": True},
                                {"lowercase": False, "min_df": 3}, {"min_df": 5, "binary": True}])
def test_equals_count_vectorizer_on_the_spam_corpus(kw):
    docs = load_spam().data[::4]
    X, vocab = bag_of_words(docs, **kw)
    cv = text.CountVectorizer(**kw)
    ref = cv.fit_transform(docs).toarray()
    np.testing.assert_array_equal(vocab, cv.get_feature_names_out())
    np.testing.assert_array_equal(X, ref)          # integer counts: exact
    assert X.dtype == np.float64


@pytest.mark.parametrize("binary", [False, True])
def test_max_features_equals_count_vectorizer_away_from_ties(binary):
    docs = load_spam().data[::4]
    full = text.CountVectorizer(binary=binary).fit_transform(docs).toarray().sum(axis=0)
    totals = np.sort(full)[::-1]
    # a size where the kept and the dropped words differ in total (scikit-learn orders ties
    # at the boundary arbitrarily; bag_of_words alphabetically)
    m = next(k for k in range(150, 400) if totals[k - 1] > totals[k])
    X, vocab = bag_of_words(docs, max_features=m, binary=binary)
    cv = text.CountVectorizer(max_features=m, binary=binary)
    np.testing.assert_array_equal(X, cv.fit_transform(docs).toarray())
    np.testing.assert_array_equal(vocab, cv.get_feature_names_out())


def test_max_features_breaks_ties_alphabetically():
    X, vocab = bag_of_words(["bb aa cc", "cc dd"], max_features=2)
    assert vocab.tolist() == ["aa", "cc"]          # cc twice; aa, bb, dd once: aa first
    np.testing.assert_array_equal(X, [[1, 1], [0, 1]])


def test_given_vocabulary_keeps_its_order_and_ignores_other_words():
    X, vocab = bag_of_words(DOCS)
    Xr, _ = bag_of_words(DOCS, vocabulary=vocab[::-1])
    np.testing.assert_array_equal(Xr, X[:, ::-1])
    Xn, v = bag_of_words(["zebra cat cat"], vocabulary=["cat", "dog"])
    assert v.tolist() == ["cat", "dog"] and Xn.tolist() == [[2.0, 0.0]]
    cv = text.CountVectorizer().fit(DOCS)
    np.testing.assert_array_equal(bag_of_words(["the cat and a new word"], vocabulary=vocab)[0],
                                  cv.transform(["the cat and a new word"]).toarray())


def test_tokenize_and_a_document_without_words():
    assert tokenize("I am A-OK, 4 x 44") == ["am", "ok", "44"]
    X, vocab = bag_of_words(["", "hello hello"])
    assert vocab.tolist() == ["hello"] and X.tolist() == [[0.0], [2.0]]


@pytest.mark.parametrize("args, kw, error, match", [
    ("just one string", {}, TypeError, "documents must be a sequence of strings"),
    ([], {}, ValueError, "documents is empty"),
    (["a b", 3], {}, TypeError, r"documents\[1\] must be a string"),
    (DOCS, {"min_df": 0}, ValueError, "min_df must be"),
    (DOCS, {"min_df": 1.5}, ValueError, "min_df must be"),
    (DOCS, {"max_features": 0}, ValueError, "max_features must be >= 1"),
    (DOCS, {"binary": "yes"}, TypeError, "binary must be"),
    (DOCS, {"vocabulary": ["cat", "cat"]}, ValueError, "holds a word twice"),
    (DOCS, {"vocabulary": ["cat"], "min_df": 2}, ValueError, "with a given vocabulary"),
    (DOCS, {"vocabulary": [[1, 2]]}, TypeError, "vocabulary must be a 1-d sequence"),
    (DOCS, {"vocabulary": []}, ValueError, "vocabulary is empty"),
    (DOCS, {"min_df": 5}, ValueError, r"no word is left.*min_df=5 documents; lower min_df"),
    (["hello world", "foo"], {"min_df": 0.9}, ValueError,
     r"min_df=0.9 \(a fraction\) of the documents"),
    (["a b", "", "c!"], {}, ValueError, "the documents hold no word"),
])
def test_bad_input(args, kw, error, match):
    with pytest.raises(error, match=match):
        bag_of_words(args, **kw)
