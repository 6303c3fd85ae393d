package main

import "testing"

func TestByteSizeFlag(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64 // 0: an error
	}{
		{"1073741824", 1 << 30},
		{"512M", 512 << 20},
		{"512m", 512 << 20},
		{"2G", 2 << 30},
		{"2GiB", 2 << 30},
		{"1.5G", 3 << 29},
		{"64KB", 64 << 10},
		{"1T", 1 << 40},
		{"0", 0},
		{"-1G", 0},
		{"G", 0},
		{"lots", 0},
		{"8E", 0},
		{"", 0},
	} {
		var b byteSize
		err := b.Set(tt.in)
		if tt.want == 0 {
			if err == nil {
				t.Errorf("Set(%q) = %d, want an error", tt.in, b)
			}
			continue
		}
		if err != nil || int64(b) != tt.want {
			t.Errorf("Set(%q) = %d, %v; want %d", tt.in, b, err, tt.want)
		}
	}
}
