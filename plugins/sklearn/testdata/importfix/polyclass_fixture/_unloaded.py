"""A private module the package's public __init__ does not import."""

from sklearn.linear_model import LogisticRegression

from polyclass_fixture._mark import mark

mark(__name__)


class Est(LogisticRegression):
    """scikit-learn's LogisticRegression under another name."""
