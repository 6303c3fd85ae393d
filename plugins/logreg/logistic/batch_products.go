package logistic

import (
	"sync"
	"sync/atomic"

	"github.com/polyclass/polyclass/framework/sparse"
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
			return (&panelRunner{x: sparseBlocks{s, x.csrForm}, workers: workers}).run
		}
		return (&panelRunner{x: denseBlocks{x}, workers: workers}).run
	case *CSRDesign:
		return (&panelRunner{x: sparseBlocks{x.unitMatrix(), func() *sparse.CSR { return x.m }}, workers: workers}).run
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
	case opGram:
		panic("logistic: explicit Hessian of a design without ExplicitHessian")
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
	// gram adds the explicit Hessians' data parts of the rows, with row
	// weights the rows×w panel t, to the packed (d+1)(d+2)/2×w panel h
	// (blockmul.Gram, sparsemul.Gram).
	gram(h []float64, i0, rows int, t []float64, w int)
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

func (x denseBlocks) gram(h []float64, i0, rows int, t []float64, w int) {
	blockmul.Gram(h, x.rows(i0), x.m.raw.Stride, rows, x.m.raw.Cols, t, w)
}

// sparseBlocks are the products of a CSR design (or of a dense design in
// sparse form): sparsemul's kernels on the design with its unit entries
// apart, and sparsemul.Gram on the design in CSR form, which csr returns.
type sparseBlocks struct {
	m   *sparsemul.Matrix
	csr func() *sparse.CSR
}

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

func (x sparseBlocks) gram(h []float64, i0, rows int, t []float64, w int) {
	sparsemul.Gram(h, x.csr(), i0, i0+rows, t, w)
}

// panelRunner computes the rounds of products of a batch: the products of
// a kind go side by side in the lanes of one panel (a product alone in a
// panel of its own, without copies), and all kinds of a round share one
// pass over the rows, block by block, so that each block is read from
// memory once a round rather than once per kind. The kernels' arithmetic
// for a problem does not depend on its lane, its neighbours or the other
// kinds of its round, so a problem has the same iterates alone and in any
// batch.
//
// The rows are cut into chunks whose size depends on the number of rows
// alone (see chunkRows); the chunks run on up to workers goroutines, and
// the sums of the transpose products over the chunks are added chunk after
// chunk, so the results do not depend on the number of goroutines either.
type panelRunner struct {
	x       blockProducts
	workers int
	// groups holds the requests of a round by kind (index op−1), active
	// those of its groups that have requests, in that order.
	groups [numOps]panelGroup
	active []*panelGroup
	// scratch holds the panels of each goroutine.
	scratch []*panelScratch
	// zeros (read) and sink (written) stand for the lanes beyond the
	// requests.
	zeros, sink []float64
}

// panelGroup is the requests of one kind in a round and their panels.
type panelGroup struct {
	op   productOp
	reqs []*product
	// w is the panel width; src the d×w panel of the requests' src vectors
	// the kernels read (X·v and Hessian products): v packed, or the vector
	// itself for one request.
	w   int
	src []float64
	// v is the packed d×w panel, then the sum of the chunks' parts (outs×w);
	// vb holds the w offsets of Hessian products, then their sums.
	v, vb []float64
	// part holds each chunk's outs×w panel of sums and its w Hessian sums
	// (transpose, Hessian and explicit Hessian products; X·v products
	// have none).
	part, partHb [][]float64
	// outs is the length of a transpose product's dst: d, or the entries
	// of an explicit Hessian.
	outs int
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
	for i := range k.groups {
		k.groups[i].op, k.groups[i].reqs = productOp(i+1), k.groups[i].reqs[:0]
	}
	for _, r := range reqs {
		g := &k.groups[r.op-1]
		g.reqs = append(g.reqs, r)
	}
	k.active = k.active[:0]
	for i := range k.groups {
		if g := &k.groups[i]; len(g.reqs) > 0 {
			k.active = append(k.active, g)
		}
	}
	if len(k.active) == 0 {
		return
	}
	k.panels()
	b := k.x.blockRows()
	k.chunks(func(s *panelScratch, c, r0, r1 int) {
		for _, g := range k.active {
			if g.op != opMulVec { // X·v products write their dst rows
				clear(g.part[c])
				clear(g.partHb[c])
			}
		}
		for i0 := r0; i0 < r1; i0 += b {
			rows := min(b, r1-i0)
			for _, g := range k.active {
				k.block(s, g, c, i0, rows)
			}
		}
	})
	for _, g := range k.active {
		k.finish(g)
	}
}

// block computes the part of g's products from the rows i0 ≤ i < i0+rows
// of chunk c.
func (k *panelRunner) block(s *panelScratch, g *panelGroup, c, i0, rows int) {
	switch g.op {
	case opMulVec:
		if g.w == 1 {
			k.x.mul(g.reqs[0].dst[i0:i0+rows], i0, rows, g.src, 1)
			return
		}
		k.x.mul(s.t, i0, rows, g.src, g.w)
		blockmul.Unpack(s.columns(g.reqs, dstOf, i0, rows, g.w, k.sink), s.t, g.w, rows)
	case opMulVecTrans, opMulVecTransSq:
		k.x.addTrans(g.part[c], i0, rows, k.rowPanel(s, g, srcOf, i0, rows), g.w, g.op == opMulVecTransSq)
	case opHessVec:
		k.x.hess(g.part[c], g.partHb[c], s.t, i0, rows, g.src, g.w, k.rowPanel(s, g, ddOf, i0, rows), g.vb)
	case opGram:
		k.x.gram(g.part[c], i0, rows, k.rowPanel(s, g, ddOf, i0, rows), g.w)
	}
}

// finish sets the results of g's products from the chunks' parts: the dst
// of a transpose or Hessian product and the hb of a Hessian product (X·v
// products wrote their dst in the pass).
func (k *panelRunner) finish(g *panelGroup) {
	if g.op == opMulVec {
		return
	}
	_, chunks := k.chunking()
	if g.op == opHessVec {
		hb := g.vb // the offsets are no longer needed
		sumParts(hb, g.partHb[:chunks])
		for c, r := range g.reqs {
			r.hb = hb[c]
		}
	}
	k.unpack(g)
}

// panels sizes the panels of the active groups and the goroutines'
// scratch, and packs the groups' src vectors and offsets.
func (k *panelRunner) panels() {
	_, d := k.x.dims()
	b := k.x.blockRows()
	_, chunks := k.chunking()
	workers := min(max(k.workers, 1), chunks)
	for len(k.scratch) < workers {
		k.scratch = append(k.scratch, &panelScratch{})
	}
	wmax := 0
	for _, g := range k.active {
		g.w = blockmul.Width(len(g.reqs))
		wmax = max(wmax, g.w)
		g.outs = d
		if g.op == opGram {
			g.outs = sparsemul.GramSize(d + 1)
		}
		g.v = grow(g.v, g.outs*g.w)
		g.vb = grow(g.vb, g.w)
		if g.op == opMulVec {
			continue // no chunk sums: see block
		}
		for len(g.part) < chunks {
			g.part, g.partHb = append(g.part, nil), append(g.partHb, nil)
		}
		for c := range chunks {
			g.part[c] = grow(g.part[c], g.outs*g.w)
			g.partHb[c] = grow(g.partHb[c], g.w)
		}
	}
	for _, s := range k.scratch {
		s.blk = grow(s.blk, b*wmax)
		s.t = grow(s.t, b*wmax)
		if cap(s.cols) < wmax {
			s.cols = make([][]float64, wmax)
		}
	}
	if m := max(d, b); len(k.zeros) < m {
		k.zeros, k.sink = make([]float64, m), make([]float64, m)
	}
	for _, g := range k.active {
		if g.op == opMulVec || g.op == opHessVec {
			g.src = k.srcPanel(g)
		}
		if g.op == opHessVec {
			clear(g.vb)
			for c, r := range g.reqs {
				g.vb[c] = r.vb
			}
		}
	}
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

// columns returns the w columns of a panel: rows i0 ≤ i < i0+rows of
// col(r) for the requests r of g, then pad[:rows] for the lanes beyond
// them (in s.cols).
func (s *panelScratch) columns(g []*product, col func(*product) []float64, i0, rows, w int, pad []float64) [][]float64 {
	cols := s.cols[:w]
	for c := range cols {
		if c < len(g) {
			cols[c] = col(g[c])[i0 : i0+rows]
		} else {
			cols[c] = pad[:rows]
		}
	}
	return cols
}

// srcPanel returns the d×w panel of the src vectors of g (length d each):
// the vector itself for one request, else g.v with vector c in lane c and
// the lanes beyond the requests zero.
func (k *panelRunner) srcPanel(g *panelGroup) []float64 {
	if g.w == 1 {
		return g.reqs[0].src
	}
	_, d := k.x.dims()
	blockmul.Pack(g.v, g.w, k.scratch[0].columns(g.reqs, srcOf, 0, d, g.w, k.zeros), d)
	return g.v
}

// rowPanel returns the rows×w panel of rows i0 ≤ i < i0+rows of col(r)
// for the requests r of g: the vector's rows themselves for one request,
// else s.blk with request c in lane c and the lanes beyond the requests
// zero.
func (k *panelRunner) rowPanel(s *panelScratch, g *panelGroup, col func(*product) []float64, i0, rows int) []float64 {
	if g.w == 1 {
		return col(g.reqs[0])[i0 : i0+rows]
	}
	blockmul.Pack(s.blk, g.w, s.columns(g.reqs, col, i0, rows, g.w, k.zeros), rows)
	return s.blk
}

// srcOf, dstOf and ddOf select an operand of a product.
func srcOf(r *product) []float64 { return r.src }
func dstOf(r *product) []float64 { return r.dst }
func ddOf(r *product) []float64  { return r.dd }

// unpack sets the dst of each request of g to the sum of its lane of the
// chunks' outs×w panels.
func (k *panelRunner) unpack(g *panelGroup) {
	_, chunks := k.chunking()
	parts := g.part[:chunks]
	if g.w == 1 {
		sumParts(g.reqs[0].dst, parts)
		return
	}
	sum := g.v[:g.outs*g.w] // the vectors' panel is no longer needed
	sumParts(sum, parts)
	for c, r := range g.reqs {
		for j := range r.dst {
			r.dst[j] = sum[j*g.w+c]
		}
	}
}
