package codes

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDAGDecoder walks worked examples of DAGSVM on 4 classes, whose
// one-vs-one columns are (0,1) (0,2) (0,3) (1,2) (1,3) (2,3), each +1 for
// the first class.
func TestDAGDecoder(t *testing.T) {
	for _, asym := range []bool{false, true} {
		m := must(t)(OVO(4, asym))
		for _, tc := range []struct {
			name string
			s    []float64 // the symmetric half
			want int
			dst  []float64
			tie  bool
		}{
			// 0 vs 3: 0 wins (3 out, step 0); 0 vs 2: 2 wins (0 out, step 1);
			// 1 vs 2: 1 wins (2 out, step 2); 1 remains.
			{"path 0-3, 0-2, 1-2", []float64{-5, -1, 2, 0.5, -3, 4}, 1, []float64{1, 3, 2, 0}, false},
			// Everything positive: the first class beats every last one.
			{"first always wins", []float64{1, 1, 1, 1, 1, 1}, 0, []float64{3, 2, 1, 0}, false},
			// Everything negative: the last class beats every first one.
			{"last always wins", []float64{-1, -1, -1, -1, -1, -1}, 3, []float64{0, 1, 2, 3}, false},
			// 0 vs 3 exactly 0: a tie, 0 (the lower index) stays.
			{"tie keeps the lower", []float64{1, 1, 0, 1, 1, 1}, 0, []float64{3, 2, 1, 0}, true},
		} {
			s := slices.Clone(tc.s)
			if asym {
				s = append(s, neg(tc.s)...)
			}
			dst, c, tie := decode(t, DAG, m, s)
			if c != tc.want || tie != tc.tie || !slices.Equal(dst, tc.dst) {
				t.Errorf("%s (asymmetric %v): class %d tie %v scores %v, want %d %v %v", tc.name, asym, c, tie, dst, tc.want, tc.tie, tc.dst)
			}
		}
	}
}

// TestDAGAgreesWithVoteOnTransitiveScores: when the pairwise classifiers
// agree with one ranking of the classes, DAG and vote both predict its
// first class.
func TestDAGAgreesWithVoteOnTransitiveScores(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for K := 2; K <= 8; K++ {
		m := must(t)(OVO(K, false))
		for range 20 {
			strength := rng.Perm(K) // higher beats lower
			var s []float64
			for i := range K {
				for j := i + 1; j < K; j++ {
					s = append(s, float64(strength[i]-strength[j])*(0.5+rng.Float64()))
				}
			}
			want := slices.Index(strength, K-1)
			_, dag, _ := decode(t, DAG, m, s)
			_, vote, _ := decode(t, Vote, m, s)
			if dag != want || vote != want {
				t.Fatalf("K=%d strengths %v: dag %d, vote %d, want %d", K, strength, dag, vote, want)
			}
		}
	}
}

// TestFirstSeen ranks classes by their first row; absent ones follow.
func TestFirstSeen(t *testing.T) {
	rank, err := FirstSeen([]int{2, 2, 0, 2, 3, 0}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 3, 0, 2, 4}; !slices.Equal(rank, want) {
		t.Errorf("rank %v, want %v", rank, want)
	}
	if _, err := FirstSeen([]int{0, 5}, 3); err == nil {
		t.Error("label 5 of 3 classes accepted")
	}
}

// TestLibsvmVote: the votes of svm-predict with its tie-breaking. Three
// classes seen in the order 2, 0, 1; columns (0,1) (0,2) (1,2).
func TestLibsvmVote(t *testing.T) {
	m := must(t)(OVO(3, false))
	rank := []int{1, 2, 0}
	dec, err := LibsvmVote(m, rank)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		s     []float64
		want  int
		votes []float64
		tie   bool
	}{
		{"a clear winner", []float64{1, 1, 1}, 0, []float64{2, 1, 0}, false},
		// 0 beats 1, 1 beats 2, 2 beats 0: one vote each; 2 was seen first.
		{"a three-way tie goes to the class seen first", []float64{1, -1, 1}, 2, []float64{1, 1, 1}, true},
		// A zero score votes for the pair's class seen later: (0,1) → 1,
		// (0,2) → 0 (seen after 2), (1,2) → 1.
		{"zero votes for the class seen later", []float64{0, 0, 0}, 1, []float64{1, 2, 0}, false},
	} {
		dst := make([]float64, 3)
		c, tie := dec.Decode(dst, tc.s)
		for k := range dst {
			dst[k] += float64(rank[k]) / 3 // back to votes
		}
		if c != tc.want || tie != tc.tie || !slices.Equal(dst, tc.votes) {
			t.Errorf("%s: class %d tie %v votes %v, want %d %v %v", tc.name, c, tie, dst, tc.want, tc.tie, tc.votes)
		}
	}
	if _, err := LibsvmVote(must(t)(OVA(3)), rank); err == nil {
		t.Error("LIBSVM's vote on OVA(3) accepted")
	}
	if _, err := LibsvmVote(m, rank[:2]); err == nil {
		t.Error("2 ranks for 3 classes accepted")
	}
}
