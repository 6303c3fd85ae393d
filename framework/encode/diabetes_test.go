package encode

import (
	"testing"

	"github.com/polyclass/polyclass/framework/data"
	"github.com/polyclass/polyclass/internal/refdata"
)

// loadDiabetes reads diabetes130 (101766 rows, 47 features) with its
// integer-coded categorical columns declared.
func loadDiabetes(tb testing.TB) (*Frame, *Context) {
	tb.Helper()
	t, err := data.ReadCSV(refdata.Data(tb, "diabetes130.csv.gz"), data.Options{Categorical: []string{"admission_type_id", "discharge_disposition_id", "admission_source_id"}})
	if err != nil {
		tb.Fatal(err)
	}
	f := NewFrame(t, map[string]bool{"class": true})
	cls, _ := t.Lookup("class")
	labels := make([]int, t.NumRows)
	for i, c := range cls.Codes {
		labels[i] = int(c)
	}
	var train []int
	for i := 0; i < t.NumRows; i++ {
		if i%5 != 0 {
			train = append(train, i)
		}
	}
	return f, &Context{Train: train, Labels: labels, K: len(cls.Levels), Seed: 1}
}

// diabetesPipeline is impute → cross of the three ICD-9 diagnoses →
// onehot of every categorical column (the crosses included).
func diabetesPipeline() []Step {
	return []Step{&Impute{}, &Cross{Columns: []string{"diag_1", "diag_2", "diag_3"}}, &OneHot{}}
}

func encodeAll(tb testing.TB, f *Frame, ctx *Context, steps []Step) *Frame {
	for _, s := range steps {
		var err error
		if f, err = s.FitTransform(f, ctx); err != nil {
			tb.Fatal(err)
		}
	}
	return f
}

// TestDiabetesMemory encodes diabetes130 with onehot and the pairwise
// crosses of diag_1/diag_2/diag_3 and checks that the CSR design is far
// smaller than the dense matrix it stands for.
func TestDiabetesMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: diabetes130 encoding skipped")
	}
	f, ctx := loadDiabetes(t)
	out := encodeAll(t, f, ctx, diabetesPipeline())
	m, fn, err := out.Design()
	names := fn.List()
	if err != nil {
		t.Fatal(err)
	}
	if m.CSR == nil {
		t.Fatal("design is dense")
	}
	if err := m.CSR.Validate(); err != nil {
		t.Fatal(err)
	}
	rows, cols := m.CSR.Dims()
	denseBytes := int64(rows) * int64(cols) * 8
	csrBytes := int64(len(m.CSR.Values))*8 + int64(len(m.CSR.Indices))*4 + int64(len(m.CSR.Indptr))*8
	t.Logf("diabetes130 onehot+cross: %d rows × %d features, nnz %d; CSR %.1f MB vs dense %.1f MB (%.3f%%)",
		rows, cols, m.CSR.NNZ(), float64(csrBytes)/1e6, float64(denseBytes)/1e6, 100*float64(csrBytes)/float64(denseBytes))
	if rows != 101766 || len(names) != cols {
		t.Errorf("%d rows, %d names for %d columns", rows, len(names), cols)
	}
	// Every row has 8 numeric entries at most plus one indicator per
	// categorical column (39) and cross (3) at most.
	if max := int64(rows) * (8 + 39 + 3); int64(m.CSR.NNZ()) > max {
		t.Errorf("nnz %d > %d", m.CSR.NNZ(), max)
	}
	if csrBytes*20 > denseBytes {
		t.Errorf("CSR %d bytes is not below 5%% of dense %d bytes", csrBytes, denseBytes)
	}
}

// BenchmarkDiabetesEncode measures the onehot + cross encoding of
// diabetes130 and its CSR design (loading excluded).
func BenchmarkDiabetesEncode(b *testing.B) {
	f, ctx := loadDiabetes(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		out := encodeAll(b, f, ctx, diabetesPipeline())
		if _, _, err := out.Design(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDiabetesCounts measures out-of-fold counts (m = 5) with the
// diagnosis crosses on diabetes130.
func BenchmarkDiabetesCounts(b *testing.B) {
	f, ctx := loadDiabetes(b)
	steps := []Step{&Impute{}, &Cross{Columns: []string{"diag_1", "diag_2", "diag_3"}}, &Counts{Folds: 5}}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		encodeAll(b, f, ctx, steps)
	}
}

// BenchmarkDiabetesHash measures hashing every categorical column of
// diabetes130 into 2^10 buckets.
func BenchmarkDiabetesHash(b *testing.B) {
	f, ctx := loadDiabetes(b)
	steps := []Step{&Impute{}, &Hash{Buckets: 1024}}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		encodeAll(b, f, ctx, steps)
	}
}

// BenchmarkDiabetesOneHotDesign measures the pipeline of
// experiments/bench/diabetes130.hcl (impute → standardize → onehot) and
// its CSR design on diabetes130, loading excluded: the bytes allocated per
// fold's design matrix.
func BenchmarkDiabetesOneHotDesign(b *testing.B) {
	f, ctx := loadDiabetes(b)
	steps := []Step{&Impute{}, &Standardize{}, &OneHot{}}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		out := encodeAll(b, f, ctx, steps)
		if _, _, err := out.Design(); err != nil {
			b.Fatal(err)
		}
	}
}
