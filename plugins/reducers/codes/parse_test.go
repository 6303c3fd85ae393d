package codes

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	src := `# a 4-class code
+1 -1 -1  0   # class 0
-1,+1,-1, 1   # commas work
   -1 , -1 , 1 , 0

0	0	-1	-1	# tabs, trailing comment
`
	m, err := Parse(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int8{{1, -1, -1, 0}, {-1, 1, -1, 1}, {-1, -1, 1, 0}, {0, 0, -1, -1}}
	if got := matrixOf(m); !reflect.DeepEqual(got, want) {
		t.Errorf("Parse = %v, want %v", got, want)
	}
	// String round-trips.
	back, err := Parse(strings.NewReader(m.String()))
	if err != nil || !back.Equal(m) {
		t.Errorf("Parse(String()) = %v, %v", back, err)
	}
	// A trailing comma is tolerated.
	if _, err := Parse(strings.NewReader("1,-1,\n-1,1,\n")); err != nil {
		t.Errorf("trailing comma: %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name      string
		src       string
		line, col int
		kind      ErrorKind // 0 when the cause is not a *MatrixError
		msg       string
	}{
		{"bad token", "1 -1\n-1 2\n", 2, 2, 0, `"2"`},
		{"fraction", "# c\n1 -1\n\n-1 0.5\n", 4, 2, 0, `"0.5"`},
		{"word", "1 one\n", 1, 2, 0, `"one"`},
		{"unicode minus", "1 −1\n-1 1\n", 1, 2, 0, "entries must be"},
		{"double comma", "1,,-1\n", 1, 2, 0, "empty entry"},
		{"leading comma", "\n,1,-1\n", 2, 1, 0, "empty entry"},
		{"ragged", "1 -1 0\n-1 1 0\n# x\n1 1\n", 4, 0, ErrRagged, "row 2 has 2"},
		{"identical", "1 -1\n-1 1\n\n+1 -1\n", 4, 0, ErrIdenticalRows, "rows 0 and 2"},
		{"one row", "1 -1\n", 1, 0, ErrShape, "at least 2"},
		{"empty", "# nothing\n\n", 2, 0, ErrShape, "0 rows"},
	} {
		_, err := Parse(strings.NewReader(tc.src))
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v is not a *ParseError", tc.name, err)
			continue
		}
		if pe.Line != tc.line || pe.Column != tc.col || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: line %d col %d %q; want line %d col %d containing %q", tc.name, pe.Line, pe.Column, err, tc.line, tc.col, tc.msg)
		}
		var me *MatrixError
		if tc.kind != 0 && (!errors.As(err, &me) || me.Kind != tc.kind) {
			t.Errorf("%s: %v does not wrap a %v MatrixError", tc.name, err, tc.kind)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"+1 -1\n-1 +1\n",
		"1,0,-1\n-1,1,0\n0,-1,1 # c\n",
		"1 -1\n1 -1\n",
		",\n",
		"1 1\n-1\n",
		"+1 0 -1\n\n# x\n-1 +1 0\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, err := Parse(strings.NewReader(src))
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 1 || pe.Column < 0 {
				t.Fatalf("error %v is not a located *ParseError", err)
			}
			return
		}
		K, L := m.Dims()
		if K < 2 || L < 1 {
			t.Fatalf("accepted a %d×%d matrix", K, L)
		}
		if len(Diagnose(m).IdenticalRows) != 0 {
			t.Fatalf("accepted identical rows:\n%v", m)
		}
		back, err := Parse(strings.NewReader(m.String()))
		if err != nil || !back.Equal(m) {
			t.Fatalf("round trip of\n%vgave %v, %v", m, back, err)
		}
	})
}
