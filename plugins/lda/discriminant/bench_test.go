package discriminant

import (
	"testing"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// benchLDA fits LDA on the whole data file (raw features: LDA is
// invariant to per-column affine scaling).
func benchLDA(b *testing.B, name string, opts LDAOptions) {
	ds := reftest.Load(b, name)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := FitLDA(ds.X, ds.Y, len(ds.Classes), opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLDALetterSVD fits the SVD solver on letter (20000×16, 26 classes).
func BenchmarkLDALetterSVD(b *testing.B) { benchLDA(b, "letter", LDAOptions{}) }

// BenchmarkLDALetterLSQRAuto fits the LSQR solver with Ledoit–Wolf
// shrinkage on letter.
func BenchmarkLDALetterLSQRAuto(b *testing.B) {
	benchLDA(b, "letter", LDAOptions{Solver: SolverLSQR, AutoShrinkage: true})
}

// BenchmarkLDADigitsSVD fits the SVD solver on digits (1797×64, 10 classes).
func BenchmarkLDADigitsSVD(b *testing.B) { benchLDA(b, "digits", LDAOptions{}) }

// BenchmarkLDADigitsLSQRAuto fits the LSQR solver with Ledoit–Wolf
// shrinkage on digits.
func BenchmarkLDADigitsLSQRAuto(b *testing.B) {
	benchLDA(b, "digits", LDAOptions{Solver: SolverLSQR, AutoShrinkage: true})
}

// BenchmarkLSQLetter fits least-squares indicator regression on letter.
func BenchmarkLSQLetter(b *testing.B) {
	ds := reftest.Load(b, "letter")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := FitLSQ(ds.X, ds.Y, len(ds.Classes), nil, 0); err != nil {
			b.Fatal(err)
		}
	}
}
