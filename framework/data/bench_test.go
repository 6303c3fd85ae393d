package data

import (
	"fmt"
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

// genARFF returns an ARFF text of rows rows: 30 numeric attributes, a
// nominal and a string one; every fourth row is sparse.
func genARFF(rows int) string {
	var b strings.Builder
	b.WriteString("@relation 'gen: -C -1'\n")
	for j := range 30 {
		fmt.Fprintf(&b, "@attribute x%d numeric\n", j)
	}
	b.WriteString("@attribute s string\n@attribute class {a,b,c}\n@data\n")
	for i := range rows {
		if i%4 == 3 {
			fmt.Fprintf(&b, "{%d %d.25, 30 's %d', 31 c}\n", i%30, i%97, i%13)
			continue
		}
		for j := range 30 {
			fmt.Fprintf(&b, "%d.%d,", (i*j)%1000, j%10)
		}
		fmt.Fprintf(&b, "'s %d',%c\n", i%13, "abc"[i%3])
	}
	return b.String()
}

// genLIBSVM returns a LIBSVM text of rows rows of about 70 features each;
// multi-label when multi.
func genLIBSVM(rows int, multi bool) string {
	var b strings.Builder
	for i := range rows {
		fmt.Fprintf(&b, "%d", i%5)
		if multi {
			fmt.Fprintf(&b, ",%d", 5+i%3)
		}
		for j := 1 + i%3; j <= 210; j += 3 {
			fmt.Fprintf(&b, " %d:%d.%d", j, (i*j)%1000, j%10)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func benchParse(b *testing.B, in string, parse func(io.Reader, string, Options) (*Table, error)) {
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := parse(strings.NewReader(in), "gen", Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseARFF parses a generated ARFF text (20000×32, a quarter
// of the rows sparse).
func BenchmarkParseARFF(b *testing.B) { benchParse(b, genARFF(20000), ParseARFF) }

// BenchmarkParseLIBSVM parses a generated single-label LIBSVM text
// (20000 rows × 70 features).
func BenchmarkParseLIBSVM(b *testing.B) { benchParse(b, genLIBSVM(20000, false), ParseLIBSVM) }

// BenchmarkParseLIBSVMMulti parses a generated multi-label LIBSVM text
// (20000 rows × 70 features, 8 labels).
func BenchmarkParseLIBSVMMulti(b *testing.B) { benchParse(b, genLIBSVM(20000, true), ParseLIBSVM) }

// BenchmarkDuplicatesCovertype counts the equal rows of covertype_50k
// (50000×13), as bench does for a cross-validated data set: a small part
// of BenchmarkReadCovertype's time.
func BenchmarkDuplicatesCovertype(b *testing.B) {
	t, err := Read(refdata.Data(b, "covertype_50k.csv.gz"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		t.Duplicates()
	}
}
