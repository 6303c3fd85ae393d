package codes

import (
	"errors"
	"fmt"
)

// pairColumns returns, for a one-vs-one matrix (OVO(K, false) or
// OVO(K, true)), col[i][j] = the column of the pair i < j, which is +1
// for class i; an error for any other matrix.
func pairColumns(m *Matrix) ([][]int, error) {
	K, _ := m.Dims()
	sym, _ := OVO(K, false)
	asym, _ := OVO(K, true)
	if K < 2 || !m.Equal(sym) && !m.Equal(asym) {
		return nil, errors.New("needs a one-vs-one code matrix (scheme ovo)")
	}
	col := make([][]int, K)
	c := 0
	for i := range K {
		col[i] = make([]int, K)
		for j := i + 1; j < K; j++ {
			col[i][j] = c
			c++
		}
	}
	return col, nil
}

// dagDecoder is DAGSVM's decision (Platt, Cristianini & Shawe-Taylor
// 2000, "Large margin DAGs for multiclass classification").
//
// A decoder is shared by the folds that share a plan, so Decode keeps no
// state in it: its list is its own.
type dagDecoder struct {
	k, l int
	col  [][]int
}

func (d *dagDecoder) Name() string     { return DAG }
func (d *dagDecoder) Dims() (int, int) { return d.k, d.l }

// Decode walks the rooted DAG of the one-vs-one classifiers: with the
// classes listed in index order, the classifier of the first and the last
// class of the list decides which of the two leaves it (the last when its
// score is positive, the first when negative), until one class remains,
// after K − 1 classifiers. A class's score is the number of classifiers
// it passed before it left the list (K − 1 for the predicted class), so
// the prediction is the unique maximum. A score of exactly 0 is a tie: the
// lower class index stays, and tie is reported.
func (d *dagDecoder) Decode(dst, s []float64) (int, bool) {
	checkLens(DAG, dst, s, d.k, d.l)
	var buf [64]int // on the stack for up to 64 classes
	list := buf[:0]
	for c := range d.k {
		list = append(list, c)
	}
	tie := false
	for step := 0; len(list) > 1; step++ {
		i, j := list[0], list[len(list)-1]
		v := s[d.col[i][j]]
		if v == 0 {
			tie = true
		}
		if v < 0 {
			dst[i], list = float64(step), list[1:]
		} else {
			dst[j], list = float64(step), list[:len(list)-1]
		}
	}
	dst[list[0]] = float64(d.k - 1)
	return list[0], tie
}

// FirstSeen returns the rank of each class 0..K−1 in the order of its
// first row among labels (0 for the class of labels[0]); classes without
// rows follow in index order.
func FirstSeen(labels []int, K int) ([]int, error) {
	rank := make([]int, K)
	for k := range rank {
		rank[k] = -1
	}
	n := 0
	for i, y := range labels {
		if y < 0 || y >= K {
			return nil, fmt.Errorf("first seen: label %d of row %d is outside 0..%d", y, i, K-1)
		}
		if rank[y] < 0 {
			rank[y] = n
			n++
		}
	}
	for k := range rank {
		if rank[k] < 0 {
			rank[k] = n
			n++
		}
	}
	return rank, nil
}

// libsvmVote is LIBSVM's one-vs-one vote (svm-predict).
type libsvmVote struct {
	k, l int
	col  [][]int
	rank []int
}

// LibsvmVote returns the one-vs-one vote of LIBSVM's svm-predict for the
// one-vs-one matrix m, whose classes rank (FirstSeen of the training
// labels) orders as LIBSVM orders its labels: by first appearance in the
// training data. Each pair's vote goes to the class of the pair seen first
// when the score for it is positive, else (zero included) to the other;
// the class with the most votes wins, a tie going to the class seen
// first. The class scores are the votes less rank/K, so that their
// argmax is the prediction; tie reports a shared most votes.
func LibsvmVote(m *Matrix, rank []int) (Decoder, error) {
	col, err := pairColumns(m)
	if err != nil {
		return nil, fmt.Errorf("decoder vote with LIBSVM's ties: %w", err)
	}
	K, L := m.Dims()
	if len(rank) != K {
		return nil, fmt.Errorf("decoder vote with LIBSVM's ties: %d class ranks for %d classes", len(rank), K)
	}
	return &libsvmVote{k: K, l: L, col: col, rank: rank}, nil
}

func (d *libsvmVote) Name() string     { return Vote }
func (d *libsvmVote) Dims() (int, int) { return d.k, d.l }

func (d *libsvmVote) Decode(dst, s []float64) (int, bool) {
	checkLens(Vote, dst, s, d.k, d.l)
	clear(dst)
	for i := range d.k {
		for j := i + 1; j < d.k; j++ {
			v := s[d.col[i][j]] // positive for i
			first, second := i, j
			if d.rank[j] < d.rank[i] {
				first, second, v = j, i, -v
			}
			if v > 0 {
				dst[first]++
			} else {
				dst[second]++
			}
		}
	}
	best, most := 0, 0.0
	for k, v := range dst {
		if v > most || v == most && d.rank[k] < d.rank[best] {
			best, most = k, v
		}
	}
	tie := false
	for k, v := range dst {
		if v == most && k != best {
			tie = true
		}
	}
	for k := range dst {
		dst[k] -= float64(d.rank[k]) / float64(d.k)
	}
	return best, tie
}
