package kernelsvm

import "testing"

// TestGlibcRand checks the stream against glibc's rand() after srand(1):
// the first ten values (the well-known outputs of an unseeded rand()) and
// the 1,000th and 100,000th (glibc 2.36 through Python's ctypes:
// CDLL("libc.so.6").rand()).
func TestGlibcRand(t *testing.T) {
	want := map[int]int{1: 1804289383, 2: 846930886, 3: 1681692777, 4: 1714636915, 5: 1957747793,
		6: 424238335, 7: 719885386, 8: 1649760492, 9: 596516649, 10: 1189641421,
		1000: 1143565421, 100000: 660658275}
	g := newGlibcRand(1)
	for i := 1; i <= 100000; i++ {
		got := g.next()
		if w, ok := want[i]; ok && got != w {
			t.Fatalf("rand() #%d = %d, want %d", i, got, w)
		}
	}
}
