"""The package's command line: what python -m polyclass_fixture runs,
and what importing polyclass_fixture.__main__ would run too."""

from sklearn.linear_model import LogisticRegression

from polyclass_fixture._mark import mark

mark(__name__)


class Est(LogisticRegression):
    """scikit-learn's LogisticRegression under another name."""
