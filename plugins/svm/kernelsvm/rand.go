package kernelsvm

// glibcRand reproduces the C library's rand() of GNU libc after srand(1)
// (its default state): the additive feedback generator
//
//	r_i = r_{i−31} + r_{i−3} (mod 2³²),  output r_i >> 1,
//
// whose first 34 words come from the seed by r_i = 16807·r_{i−1} mod
// (2³¹ − 1), with the first 310 outputs discarded. svm-train never seeds
// it, so LIBSVM's probability cross-validation shuffles with this stream.
type glibcRand struct {
	r [34]uint32
	k int // index of r_{i−1} in the ring
}

func newGlibcRand(seed uint32) *glibcRand {
	g := &glibcRand{}
	var r [344]int64
	if seed == 0 {
		seed = 1
	}
	r[0] = int64(seed)
	for i := 1; i < 31; i++ {
		r[i] = 16807 * r[i-1] % 2147483647
		if r[i] < 0 {
			r[i] += 2147483647
		}
	}
	for i := 31; i < 34; i++ {
		r[i] = r[i-31]
	}
	for i := 34; i < 344; i++ {
		r[i] = int64(uint32(r[i-31]) + uint32(r[i-3]))
	}
	for i := range g.r {
		g.r[i] = uint32(r[310+i])
	}
	g.k = 33
	return g
}

// next returns the next value of rand(), in [0, 2³¹).
func (g *glibcRand) next() int {
	i := (g.k + 1) % 34
	// r_{i−31} is 3 ahead of i in the ring of 34, r_{i−3} 31 ahead.
	v := g.r[(i+3)%34] + g.r[(i+31)%34]
	g.r[i] = v
	g.k = i
	return int(v >> 1)
}

// randSource is a stream of rand() values.
type randSource interface{ next() int }
