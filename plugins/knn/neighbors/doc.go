// Package neighbors implements the k-nearest-neighbours classifier of the
// knn plugin, reproducing scikit-learn 1.2's KNeighborsClassifier: the
// same neighbours, also among rows at the same distance as the k-th, the
// same votes and the same probabilities.
//
// A test row's class is the one with most votes among its k nearest
// training rows (the smallest class of several, as scipy's mode and
// scikit-learn's weighted_mode pick it); its probabilities are the votes
// normalised to sum to one. With uniform weights each neighbour casts one
// vote; with distance weights a neighbour at distance d casts 1/d, and
// when some neighbours are at distance 0 they alone vote, one vote each.
//
// The neighbours are found exactly, by the algorithm scikit-learn's
// algorithm="auto" picks: a KD tree for dense rows of at most 15 columns
// (Euclidean or Manhattan distance, k below half the training rows),
// otherwise brute force. Which of several rows at the k-th distance a
// search keeps depends on the order it meets the rows in and on the state
// of its heap of candidates, and each algorithm here reproduces
// scikit-learn's:
//
//   - brute force (Euclidean, Manhattan) offers every training row, in
//     row order, to a fixed-size max-heap that takes a row only when it is
//     strictly nearer than the farthest kept (sklearn/utils/_heap.pyx),
//     then sorts the heap with scikit-learn's quicksort. The Euclidean
//     distance is compared squared in scikit-learn's expanded form
//     (‖x‖² + (−2·x·y)) + ‖y‖², its dot products summed over the test
//     row's non-zero columns in column order: for sparse input the sums of
//     scikit-learn's sparse path bit for bit; for dense input OpenBLAS's
//     sums round differently, so that only distances computed exactly
//     (integer features) tie as there.
//   - the KD tree is scikit-learn's node for node (its leaf size, split
//     dimension, median split by GCC's std::nth_element on row indices,
//     bounds), searched depth first, the nearer child first, so that rows
//     are met in the same order; distances are summed in column order as
//     scikit-learn's are.
//   - cosine distance, which scikit-learn's heap-based search lacks, goes
//     as scikit-learn's fallback does: the row's distance to every
//     training row, NumPy's introselect (np.argpartition at k−1), then
//     NumPy's quicksort of the k distances (np.argsort).
//
// One difference is deliberate. scikit-learn's heap-based search, when
// it parallelises over the training rows (at most 4·256 test rows per
// OpenMP thread), gathers candidates in a heap per thread and pushes those
// heaps' entries into each test row's heap, which with several threads
// can keep another row among rows at equal distance and with one thread
// orders such rows differently; how it searches thus depends on how many
// rows it is asked about and on the machine's cores. Here each test row is
// answered as scikit-learn answers it on one thread in one pass, whatever
// the other rows of the call: the same neighbours, at worst in another
// order among equal distances, which changes no vote and no probability
// but in the last bit of a distance-weighted vote of k ≥ 8 neighbours
// (NumPy sums those pairwise).
package neighbors
