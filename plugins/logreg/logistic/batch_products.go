package logistic

import (
	"sync"
	"sync/atomic"

	"github.com/polyclass/polyclass/plugins/logreg/logistic/internal/blockmul"
	"github.com/polyclass/polyclass/plugins/logreg/logistic/internal/sparsemul"
)

// productRunner returns the function that computes a round of products of
// a batch with x: a panelRunner on workers goroutines for the dense and
// CSR designs of this package (in sparse form for a dense design sparse
// enough, see maxDensity), one product after the other with the design's
// own methods for any other design.
func productRunner(x Design, workers int) func([]*product) {
	switch x := x.(type) {
	case *DenseDesign:
		if s := x.sparseForm(); s != nil {
			return (&panelRunner{x: sparseBlocks{s}, workers: workers}).run
		}
		return (&panelRunner{x: denseBlocks{x}, workers: workers}).run
	case *CSRDesign:
		return (&panelRunner{x: sparseBlocks{x.unitMatrix()}, workers: workers}).run
	}
	return func(reqs []*product) {
		for _, r := range reqs {
			runProduct(x, r)
		}
	}
}

// runProduct computes one product with the design's own method.
func runProduct(x Design, r *product) {
	switch r.op {
	case opMulVec:
		x.MulVec(r.dst, r.src)
	case opMulVecTrans:
		x.MulVecTrans(r.dst, r.src)
	case opMulVecTransSq:
		x.MulVecTransSq(r.dst, r.src)
	case opHessVec:
		r.hb = hessVec(x, r.dst, r.tmp, r.src, r.dd, r.vb)
	}
}

// blockProducts are a design's products on a block of rows with panels of
// w vectors (the layout of package blockmul): the kernels a panelRunner
// drives.
type blockProducts interface {
	// dims returns the number of rows and columns.
	dims() (n, d int)
	// blockRows is the number of rows the runner hands the kernels at a
	// time: the rows×w panels of a block stay in the L1 data cache.
	blockRows() int
	// mul sets the rows×w panel t to the rows i0 ≤ i < i0+rows times the
	// d×w panel v.
	mul(t []float64, i0, rows int, v []float64, w int)
	// addTrans adds the transpose of the rows (squared entries when sq)
	// times the rows×w panel t to the d×w panel h.
	addTrans(h []float64, i0, rows int, t []float64, w int, sq bool)
	// hess adds the data part of the Hessian products of the rows to h and
	// hb, with row weights dd and offsets vb (blockmul.Hess); t is scratch.
	hess(h, hb, t []float64, i0, rows int, v []float64, w int, dd, vb []float64)
}

// denseBlocks are the products of a dense design: blockmul's kernels.
type denseBlocks struct{ m *DenseDesign }

func (x denseBlocks) dims() (n, d int) { return x.m.Dims() }

func (denseBlocks) blockRows() int { return 64 }

// rows returns the design's storage from row i0.
func (x denseBlocks) rows(i0 int) []float64 { return x.m.raw.Data[i0*x.m.raw.Stride:] }

func (x denseBlocks) mul(t []float64, i0, rows int, v []float64, w int) {
	blockmul.Mul(t, x.rows(i0), x.m.raw.Stride, rows, x.m.raw.Cols, v, w)
}

func (x denseBlocks) addTrans(h []float64, i0, rows int, t []float64, w int, sq bool) {
	if sq {
		blockmul.AddTransSq(h, x.rows(i0), x.m.raw.Stride, rows, x.m.raw.Cols, t, w)
		return
	}
	blockmul.AddTrans(h, x.rows(i0), x.m.raw.Stride, rows, x.m.raw.Cols, t, w)
}

func (x denseBlocks) hess(h, hb, t []float64, i0, rows int, v []float64, w int, dd, vb []float64) {
	blockmul.Hess(h, hb, t, x.rows(i0), x.m.raw.Stride, rows, x.m.raw.Cols, v, w, dd, vb)
}

// sparseBlocks are the products of a CSR design (or of a dense design in
// sparse form): sparsemul's kernels on the design with its unit entries
// apart.
type sparseBlocks struct{ m *sparsemul.Matrix }

func (x sparseBlocks) dims() (n, d int) { return x.m.Rows, x.m.Cols }

func (sparseBlocks) blockRows() int { return 256 }

func (x sparseBlocks) mul(t []float64, i0, rows int, v []float64, w int) {
	x.m.Mul(t, i0, i0+rows, v, w)
}

func (x sparseBlocks) addTrans(h []float64, i0, rows int, t []float64, w int, sq bool) {
	if sq {
		x.m.AddTransSq(h, i0, i0+rows, t, w)
		return
	}
	x.m.AddTrans(h, i0, i0+rows, t, w)
}

func (x sparseBlocks) hess(h, hb, t []float64, i0, rows int, v []float64, w int, dd, vb []float64) {
	x.m.MulScale(t, i0, i0+rows, v, w, dd, vb, hb)
	x.m.AddTrans(h, i0, i0+rows, t, w)
}

// panelRunner computes the rounds of products of a batch: the products of
// a kind go side by side in the lanes of one panel (a product alone in a
// panel of its own, without copies), in one pass over the rows, block by
// block. The kernels' arithmetic for a problem does not depend on its lane
// or its neighbours, so a problem has the same iterates alone and in any
// batch.
//
// The rows are cut into chunks whose size depends on the number of rows
// alone (see chunkRows); the chunks run on up to workers goroutines, and
// the sums of the transpose products over the chunks are added chunk after
// chunk, so the results do not depend on the number of goroutines either.
type panelRunner struct {
	x       blockProducts
	workers int
	// byOp holds the requests of a round by kind (index op−1).
	byOp [4][]*product
	// v is the d×w panel of a round's vectors, vb its w offsets.
	v, vb []float64
	// part holds each chunk's d×w panel of sums and its w Hessian sums.
	part, partHb [][]float64
	// scratch holds the panels of each goroutine.
	scratch []*panelScratch
	// zeros (read) and sink (written) stand for the lanes beyond the
	// requests.
	zeros, sink []float64
}

// panelScratch is the working space of one goroutine of a round: blk and
// t are blockRows×w panels, cols the w columns Pack and Unpack move.
type panelScratch struct {
	blk, t []float64
	cols   [][]float64
}

// maxChunks bounds the chunks of a design's rows.
const maxChunks = 16

// chunkRows returns the number of rows of a chunk of an n-row design whose
// kernels take blocks of b rows: n split in at most maxChunks chunks of at
// least 1024 rows, a multiple of b.
func chunkRows(n, b int) int {
	chunks := min(maxChunks, max(1, (n+1023)/1024))
	c := (n + chunks - 1) / chunks
	return max(b, (c+b-1)/b*b)
}

// chunking returns the rows of a chunk of the design and the number of
// chunks (see chunkRows).
func (k *panelRunner) chunking() (size, chunks int) {
	n, _ := k.x.dims()
	size = chunkRows(n, k.x.blockRows())
	return size, (n + size - 1) / size
}

// run computes every product of reqs.
func (k *panelRunner) run(reqs []*product) {
	for i := range k.byOp {
		k.byOp[i] = k.byOp[i][:0]
	}
	for _, r := range reqs {
		k.byOp[r.op-1] = append(k.byOp[r.op-1], r)
	}
	if g := k.byOp[opMulVec-1]; len(g) > 0 {
		k.mulVec(g)
	}
	if g := k.byOp[opMulVecTrans-1]; len(g) > 0 {
		k.mulVecTrans(g, false)
	}
	if g := k.byOp[opMulVecTransSq-1]; len(g) > 0 {
		k.mulVecTrans(g, true)
	}
	if g := k.byOp[opHessVec-1]; len(g) > 0 {
		k.hessVec(g)
	}
}

// panels sizes the panels for the requests of g and returns their width.
func (k *panelRunner) panels(g []*product) int {
	_, d := k.x.dims()
	b := k.x.blockRows()
	w := blockmul.Width(len(g))
	_, chunks := k.chunking()
	workers := min(max(k.workers, 1), chunks)
	k.v = grow(k.v, d*w)
	k.vb = grow(k.vb, w)
	for len(k.part) < chunks {
		k.part, k.partHb = append(k.part, nil), append(k.partHb, nil)
	}
	for c := range chunks {
		k.part[c] = grow(k.part[c], d*w)
		k.partHb[c] = grow(k.partHb[c], w)
	}
	for len(k.scratch) < workers {
		k.scratch = append(k.scratch, &panelScratch{})
	}
	for _, s := range k.scratch {
		s.blk = grow(s.blk, b*w)
		s.t = grow(s.t, b*w)
		if cap(s.cols) < w {
			s.cols = make([][]float64, w)
		}
		s.cols = s.cols[:w]
	}
	if m := max(d, b); len(k.zeros) < m {
		k.zeros, k.sink = make([]float64, m), make([]float64, m)
	}
	return w
}

// grow returns s with length n, reallocated when too short.
func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// chunks calls f for every chunk of rows [r0, r1) (chunk c), on up to
// k.workers goroutines, each with scratch of its own, and returns when
// all are done.
func (k *panelRunner) chunks(f func(s *panelScratch, c, r0, r1 int)) {
	n, _ := k.x.dims()
	size, chunks := k.chunking()
	workers := min(max(k.workers, 1), chunks)
	if workers == 1 {
		for c := range chunks {
			f(k.scratch[0], c, c*size, min(n, (c+1)*size))
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for g := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				c := int(next.Add(1)) - 1
				if c >= chunks {
					return
				}
				f(k.scratch[g], c, c*size, min(n, (c+1)*size))
			}
		}()
	}
	wg.Wait()
}

// sumParts sets the first len(dst) entries of dst to the sum of the
// chunks' parts, added chunk after chunk.
func sumParts(dst []float64, parts [][]float64) {
	copy(dst, parts[0][:len(dst)])
	for _, p := range parts[1:] {
		for i, v := range p[:len(dst)] {
			dst[i] += v
		}
	}
}

// columns sets s.cols to rows i0 ≤ i < i0+rows of col(r) for the requests
// r of g, then to pad[:rows] for the lanes beyond them, and returns it.
func (s *panelScratch) columns(g []*product, col func(*product) []float64, i0, rows int, pad []float64) [][]float64 {
	for c := range s.cols {
		if c < len(g) {
			s.cols[c] = col(g[c])[i0 : i0+rows]
		} else {
			s.cols[c] = pad[:rows]
		}
	}
	return s.cols
}

// srcPanel returns the d×w panel of the src vectors of g (length d each):
// the vector itself for one request, else k.v with vector c in lane c and
// the lanes beyond the requests zero.
func (k *panelRunner) srcPanel(g []*product, w int) []float64 {
	if w == 1 {
		return g[0].src
	}
	_, d := k.x.dims()
	blockmul.Pack(k.v, w, k.scratch[0].columns(g, srcOf, 0, d, k.zeros), d)
	return k.v
}

// rowPanel returns the rows×w panel of rows i0 ≤ i < i0+rows of col(r)
// for the requests r of g: the vector's rows themselves for one request,
// else s.blk with request c in lane c and the lanes beyond the requests
// zero.
func (k *panelRunner) rowPanel(s *panelScratch, g []*product, col func(*product) []float64, i0, rows, w int) []float64 {
	if w == 1 {
		return col(g[0])[i0 : i0+rows]
	}
	blockmul.Pack(s.blk, w, s.columns(g, col, i0, rows, k.zeros), rows)
	return s.blk
}

// srcOf, dstOf and ddOf select an operand of a product.
func srcOf(r *product) []float64 { return r.src }
func dstOf(r *product) []float64 { return r.dst }
func ddOf(r *product) []float64  { return r.dd }

// unpack sets the dst of each request of g to the sum of its lane of the
// chunks' d×w panels.
func (k *panelRunner) unpack(g []*product, w int) {
	_, d := k.x.dims()
	_, chunks := k.chunking()
	parts := k.part[:chunks]
	if w == 1 {
		sumParts(g[0].dst, parts)
		return
	}
	sum := k.v[:d*w] // the vectors' panel is no longer needed
	sumParts(sum, parts)
	for c, r := range g {
		for j := range r.dst {
			r.dst[j] = sum[j*w+c]
		}
	}
}

// mulVec computes dst = X·src for every request of g.
func (k *panelRunner) mulVec(g []*product) {
	b := k.x.blockRows()
	w := k.panels(g)
	v := k.srcPanel(g, w)
	k.chunks(func(s *panelScratch, _, r0, r1 int) {
		for i0 := r0; i0 < r1; i0 += b {
			rows := min(b, r1-i0)
			if w == 1 {
				k.x.mul(g[0].dst[i0:i0+rows], i0, rows, v, 1)
				continue
			}
			k.x.mul(s.t, i0, rows, v, w)
			blockmul.Unpack(s.columns(g, dstOf, i0, rows, k.sink), s.t, w, rows)
		}
	})
}

// mulVecTrans computes dst = Xᵀ·src ((X∘X)ᵀ·src when sq) for every request
// of g.
func (k *panelRunner) mulVecTrans(g []*product, sq bool) {
	b := k.x.blockRows()
	w := k.panels(g)
	k.chunks(func(s *panelScratch, c, r0, r1 int) {
		h := k.part[c]
		clear(h)
		for i0 := r0; i0 < r1; i0 += b {
			rows := min(b, r1-i0)
			k.x.addTrans(h, i0, rows, k.rowPanel(s, g, srcOf, i0, rows, w), w, sq)
		}
	})
	k.unpack(g, w)
}

// hessVec computes the data part of the Hessian-vector product of every
// request of g: dst = Xᵀ·(dd∘(X·src + vb)) and hb, the sum of
// dd∘(X·src + vb) over the rows.
func (k *panelRunner) hessVec(g []*product) {
	b := k.x.blockRows()
	w := k.panels(g)
	v := k.srcPanel(g, w)
	clear(k.vb)
	for c, r := range g {
		k.vb[c] = r.vb
	}
	k.chunks(func(s *panelScratch, c, r0, r1 int) {
		h, hb := k.part[c], k.partHb[c]
		clear(h)
		clear(hb)
		for i0 := r0; i0 < r1; i0 += b {
			rows := min(b, r1-i0)
			k.x.hess(h, hb, s.t, i0, rows, v, w, k.rowPanel(s, g, ddOf, i0, rows, w), k.vb)
		}
	})
	_, chunks := k.chunking()
	hb := k.vb // the offsets are no longer needed
	sumParts(hb, k.partHb[:chunks])
	for c, r := range g {
		r.hb = hb[c]
	}
	k.unpack(g, w)
}
