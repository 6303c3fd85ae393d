package data

import (
	"io"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/internal/refdata"
)

func benchRead(b *testing.B, name string, opt Options) {
	p := refdata.Data(b, name)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(p, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadLetter loads letter.csv (20000×17, numeric).
func BenchmarkReadLetter(b *testing.B) { benchRead(b, "letter.csv", Options{}) }

// BenchmarkReadAdult loads adult_train.csv.gz (32561×15, mixed, gzip).
func BenchmarkReadAdult(b *testing.B) { benchRead(b, "adult_train.csv.gz", Options{}) }

// BenchmarkReadDiabetes loads diabetes130.csv.gz (101766×48, gzip).
func BenchmarkReadDiabetes(b *testing.B) {
	benchRead(b, "diabetes130.csv.gz", Options{Categorical: []string{"admission_type_id", "discharge_disposition_id", "admission_source_id"}})
}

// BenchmarkReadCovertype loads covertype_50k.csv.gz (50000×13, gzip).
func BenchmarkReadCovertype(b *testing.B) { benchRead(b, "covertype_50k.csv.gz", Options{}) }

// BenchmarkRejectLongLine rejects a CSV whose third line is 50 MB long;
// B/op stays near Options.MaxLineBytes (8 MiB), not the line's length.
func BenchmarkRejectLongLine(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_, err := ParseCSV(io.MultiReader(strings.NewReader("a,b\n1,2\n"), &endlessLine{n: 50 << 20}), "long.csv", Options{})
		if err == nil {
			b.Fatal("no error")
		}
	}
}
