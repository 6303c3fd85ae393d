package ballast

import "testing"

func TestAllocSizes(t *testing.T) {
	for _, tc := range []struct{ n, size int }{
		{-1, 0}, {0, 0}, {1, ChunkSize}, {ChunkSize, ChunkSize}, {ChunkSize + 1, 2 * ChunkSize}, {64 << 20, 64 << 20},
	} {
		b := Alloc(tc.n)
		if b.Size() != tc.size {
			t.Errorf("Alloc(%d).Size() = %d, want %d", tc.n, b.Size(), tc.size)
		}
		if (b.Addr() == nil) != (tc.size == 0) {
			t.Errorf("Alloc(%d).Addr() = %v", tc.n, b.Addr())
		}
	}
}
