package main

import (
	"fmt"
	"strconv"
	"strings"
)

// byteSize is a flag value in bytes, written as a number with an optional
// binary unit: 1073741824, 512M, 2G, 1.5GiB.
type byteSize int64

// String implements flag.Value.
func (b *byteSize) String() string { return strconv.FormatInt(int64(*b), 10) }

// Set implements flag.Value.
func (b *byteSize) Set(s string) error {
	num := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(s), "B"), "i")
	shift := 0
	if n := len(num); n > 0 {
		if i := strings.IndexByte("KMGT", strings.ToUpper(num[n-1:])[0]); i >= 0 {
			shift, num = 10*(i+1), num[:n-1]
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v <= 0 || v*float64(int64(1)<<shift) >= 1<<62 {
		return fmt.Errorf("%q is not a size: want bytes, or a number with K, M, G or T (binary units), e.g. 512M", s)
	}
	*b = byteSize(v * float64(int64(1)<<shift))
	return nil
}
