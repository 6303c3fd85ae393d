// Package codes reduces a K-class problem to binary problems through a
// ternary code matrix and decodes the binary outputs back into classes.
//
// # Code matrices
//
// A code matrix C ∈ {+1, 0, −1}^{K×L} has one row (codeword) per class and
// one column per binary problem. Problem i trains on the rows of the classes
// k with C[k][i] ≠ 0, with target C[k][i]; the classes with 0 are left out
// (Allwein, Schapire & Singer 2000). Indices are 0-based throughout.
//
//   - OVA(K): one-vs-all, L = K, C[k][i] = +1 if i = k else −1.
//   - Ordered(order): a decision list, L = K−1. Column t separates class
//     order[t] (+1) from the classes order[t+1:] (−1); the classes
//     order[:t] are 0. FrequencyOrder gives the order by descending class
//     frequency (ties by class index). Decode with "sequential".
//   - OVO(K, asymmetric): one-vs-one, one column per pair i < j in the
//     order (0,1), (0,2), …, (0,K−1), (1,2), …, (K−2,K−1): +1 for i, −1 for
//     j. With asymmetric the swapped columns (−1 for i, +1 for j) follow in
//     the same pair order: L = K(K−1), the first half being the symmetric
//     matrix.
//   - Exhaustive(K): Dietterich & Bakiri (1995), every split of the classes
//     into two non-empty groups once, L = 2^{K−1} − 1, K ≤ 12. Row 0 is all
//     +1; row k ≥ 1 alternates runs of 2^{K−1−k} entries −1, +1. All row
//     distances are 2^{K−2}.
//   - RandomDense(K, L, seed) draws ±1 entries, RandomSparse(K, L, seed)
//     entries 0 w.p. ½ and ±1 w.p. ¼ each. Each draws DefaultTrials (100)
//     candidates from one PCG stream seeded by seed and keeps the one with
//     the largest minimum row distance (the first on ties). Column draws
//     lacking a +1 or a −1, or equal or complementary to an earlier column,
//     are redrawn; candidates leaving a pair of classes on the same side of
//     every column are rejected. Default lengths (Allwein et al. 2000):
//     ⌈10·log₂ K⌉ dense and ⌈15·log₂ K⌉ sparse, capped at the number of
//     usable distinct columns, 2^{K−1} − 1 and (3^K − 2^{K+1} + 1)/2.
//     (scikit-learn's OutputCodeClassifier instead uses L = 1.5·K.) Cost
//     O(trials·(K²·L)).
//   - FromRows reads a user matrix (the reduction's matrix attribute);
//     errors locate the element (*MatrixError: 0-based row/column).
//
// # Diagnostics
//
// The distance between codewords r and s counts a 0 in either as ½:
//
//	d(r, s) = Σᵢ (1 − rᵢ·sᵢ)/2.
//
// Diagnose reports K, L, the minimum and mean distance over pairs of rows,
// the error-correcting capability ⌊(d_min − 1)/2⌋, constant columns (no +1
// or no −1), duplicate and complementary column pairs, identical rows,
// all-zero rows, and pairs of classes never on opposite sides of a column.
//
// # Decoding
//
// A decoder receives the L real scores s of one example (positive means
// the +1 side) and returns K class scores, higher being better, the
// predicted class (their argmax) and whether it was tied. Ties are broken
// deterministically towards the lowest class index and reported. The hard
// outputs are wᵢ = sign(sᵢ) with sign(0) = 0: a score of exactly zero is an
// abstention and costs ½ against every codeword entry, like a 0 entry.
//
//   - "hamming": d(w, c_k) = Σᵢ (1 − wᵢ·c_{ki})/2; class score −d;
//     predict argmin d.
//   - "vote": v_k = Σᵢ (1 + wᵢ·c_{ki})/2 − z_k/2, z_k the number of zeros in
//     row k; for one-vs-one this is the classic pairwise vote count. Note
//     v_k + d(w, c_k) = L − z_k/2, which for OvO is (K−1)(K+2)/4 for every
//     class, so vote and Hamming decoding agree on OvO.
//   - "loss:NAME": d(s, c_k) = Σᵢ L(sᵢ·c_{ki}) over all L columns (a 0 entry
//     contributes L(0)); class score −d; predict argmin d. The losses are
//     exp: e^{−z}; hinge: max(0, 1−z); logistic: log(1+e^{−z});
//     squared: (1−z)²; zero_one: (1 − sign z)/2 (equal to Hamming
//     decoding); linear: −z.
//   - "coverage": with the L × K table P of CoverageCounts (P[i][k] = number
//     of training rows of class k that classifier i scored positive), the
//     class score is Σ_{i: sᵢ > 0} P[i][k]; predict argmax.
//   - "sequential" (Ordered matrices only): walk the list, the first column
//     t with sₜ > 0 predicts order[t], otherwise the last class. The class
//     score of order[t] is the margin min(−s₀, …, −s_{t−1}, sₜ) (without sₜ
//     for the last class); the prediction always has a maximal score, the
//     only positive one when no walked output is exactly 0. Such a zero
//     output is treated as "not positive" and reported as a tie; the walk,
//     not the lowest index, decides.
//   - "dag" (one-vs-one matrices only): DAGSVM (Platt, Cristianini &
//     Shawe-Taylor 2000). The classes are listed in index order; the
//     classifier of the first and the last listed class removes the
//     last when its score is positive, the first when negative, until one
//     class remains. A class scores the number of classifiers it passed
//     before it was removed (K − 1 for the prediction). A score of exactly
//     0 keeps the lower index and is reported as a tie.
//
// LibsvmVote is the one-vs-one vote of LIBSVM's svm-predict: a pair's vote
// goes to its class seen first in the training rows (FirstSeen) when the
// score for it is positive, else to the other, and the most votes win,
// ties to the class seen first.
//
// DecodeAll decodes an n × L score matrix into an n × K class-score matrix,
// predictions and a tie count; Softmax turns class scores into
// probabilities row by row.
package codes
