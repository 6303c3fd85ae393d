// Package discriminant implements closed-form linear classifiers and
// regressors used by the lda plugin:
//
//   - LDA: linear discriminant analysis with pooled within-class covariance
//     and priors equal to the training class frequencies, natively
//     multiclass. The default SVD solver reproduces scikit-learn 1.2's
//     LinearDiscriminantAnalysis(solver="svd") and copes with a singular
//     covariance (constant or collinear columns, one-hot blocks). The LSQR
//     solver reproduces LinearDiscriminantAnalysis(solver="lsqr",
//     shrinkage=...) including Ledoit–Wolf ("auto") shrinkage.
//   - LSQ: least-squares regression on the one-hot indicator matrix with
//     argmax prediction (optionally ridge-penalised).
//   - Ridge: multi-output (weighted) ridge regression with an unpenalised
//     intercept; ridge 0 is ordinary least squares (minimum-norm solution
//     when the design is rank deficient).
//
// All matrices are gonum *mat.Dense with one row per sample. Class labels
// are integers 0..K−1.
package discriminant
