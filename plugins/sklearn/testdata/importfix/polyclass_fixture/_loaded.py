"""A private module the package's public __init__ imports."""

from sklearn.linear_model import LogisticRegression


class Est(LogisticRegression):
    """scikit-learn's LogisticRegression under another name."""
