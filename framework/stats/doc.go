// Package stats compares learners: the Nadeau–Bengio corrected resampled
// t-test for two learners on one data set, and, following Demšar (2006,
// "Statistical Comparisons of Classifiers over Multiple Data Sets", JMLR 7),
// the Wilcoxon signed-ranks test for two learners and the Friedman test with
// the Iman–Davenport correction and the Nemenyi / Bonferroni–Dunn critical
// differences for several learners over several data sets; and the
// Bayesian comparisons of Benavoli, Corani, Demšar & Zaffalon (2017, "Time
// for a change", JMLR 18) with a region of practical equivalence: the
// correlated t-test on one data set's cross-validation folds and the
// signed-rank test across data sets.
package stats
