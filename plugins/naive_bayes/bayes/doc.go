// Package bayes implements the naive Bayes classifiers of the naive_bayes
// plugin, each reproducing its scikit-learn 1.2 namesake:
//
//   - Gaussian (GaussianNB): per class, a normal density per feature with
//     the class's mean and variance, every variance increased by
//     var_smoothing times the largest feature variance of the training
//     rows;
//   - Multinomial (MultinomialNB): per class, feature probabilities from
//     the class's summed feature values (counts) smoothed by alpha;
//   - Bernoulli (BernoulliNB): per class, the probability that a feature
//     is non-zero (above Binarize), smoothed by alpha.
//
// All three predict the class of largest joint log-likelihood
// log P(c) + log P(x|c) (the first of several), and probabilities by
// normalising its exponential (log-sum-exp). Sums are taken in
// scikit-learn's order where NumPy fixes one: column sums over rows in row
// order (np.sum along axis 0), sums within a row pairwise (np.sum along
// the last axis), so that on the same inputs the fitted parameters agree
// bit for bit and predictions agree but for rows whose two best classes
// differ by a few units in the last place (NumPy's log and exp and
// OpenBLAS's matrix products round differently from Go's in the last
// bit).
//
// Matrices are gonum *mat.Dense or package sparse CSR with one row per
// sample; classes are 0..K−1. A class with no training rows has
// probability 0 (joint log-likelihood −∞), as the class scikit-learn
// would not know.
package bayes
