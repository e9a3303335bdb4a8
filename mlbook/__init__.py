"""mlbook: the NumPy implementations behind *Classical Machine Learning, Derived and Implemented*.

Each module mirrors a part of the book and follows scikit-learn's names, so
that what a reader learns here carries over. Importing the package is cheap:
submodules are imported on demand (``from mlbook.tree import entropy``).
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
