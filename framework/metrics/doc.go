// Package metrics scores one cross-validation fold of a multiclass or
// multi-label classifier, following scikit-learn 1.2 conventions.
//
// Conventions (all checked against scikit-learn 1.2.1 in the tests, see
// testdata/gen_sklearn_crosscheck.py):
//
//   - A confusion matrix has one row per actual class and one column per
//     predicted class.
//   - Multiclass macro and weighted averages run over the classes that occur
//     in the fold's true OR predicted labels (sklearn's unique_labels);
//     multi-label averages run over all K labels.
//   - A ratio with an empty denominator is set to 0 (sklearn's
//     zero_division="warn"/0) and each such case is reported as a warning.
//     Averaged scores report the number of classes (or samples) whose
//     precision, recall, F1 or Jaccard was ill-defined; F1 counts a class when
//     its precision or its recall was ill-defined, mirroring sklearn's
//     "Precision and F-score are ill-defined" messages.
//   - F1 is computed from the zero-division-adjusted precision P and recall R
//     as 2PR/(P+R), or 0 when P+R = 0 (sklearn 1.2 behaviour).
//   - balanced_accuracy is the mean recall over the classes that occur in the
//     true labels; a class that is only predicted is dropped and counted as a
//     warning (sklearn warns "y_pred contains classes not in y_true").
//   - ROC AUC counts ties as ½ (the Mann–Whitney statistic), which equals the
//     trapezoidal area of sklearn's roc_curve.
//   - auc_ovr / auc_ovr_weighted: sklearn's roc_auc_score(multi_class="ovr")
//     raises when a class is absent from the fold's true labels. Here such a
//     class (and a class that is every row's class, which has no negatives)
//     is skipped and counted as a warning; the weighted variant weights the
//     remaining classes by their prevalence (an absent class has weight 0, so
//     it agrees with sklearn's definition whenever sklearn is defined).
//   - auc_ovo is Hand & Till's M, sklearn's roc_auc_score(multi_class="ovo",
//     average="macro"), averaged over pairs of classes that occur in the true
//     labels, as sklearn does when labels= lists all K classes; each absent
//     class counts as a warning. With no usable class (auc_ovr) or pair
//     (auc_ovo) the AUC metrics return 0.
//   - log_loss clips probabilities to [ε, 1−ε] with ε = 2⁻⁵² (float64
//     machine epsilon) and then renormalises each row, as scikit-learn ≥ 1.2
//     does by default (eps="auto"); the old default 1e-15 gives different
//     values for probabilities within 1e-15 of 0 or 1.
//   - log_loss and brier of a learner that gives no probabilities use a
//     softmax of the decoder's class scores.
//   - brier is the multiclass Brier score mean_i Σ_k (p_ik − [y_i = k])²,
//     Brier's original definition. It ranges over [0, 2]; for K = 2 it is twice
//     sklearn's binary brier_score_loss.
//   - kappa with a chance agreement of 1 (sklearn returns NaN) and mcc with a
//     zero variance (sklearn returns 0) are both reported as 0 with a warning.
package metrics
