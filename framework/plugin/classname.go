package plugin

import (
	"math"
	"strconv"
	"strings"
)

// ClassIndex returns the index of the class that name names among
// classes: the class spelled name, else the one name equals as a number
// when both are numbers written in decimal ("1.0", "+1" and "01" name
// class "1", as the data's spellings of one number are one class), else
// -1. Whole numbers in digits compare digit by digit, so that
// 9007199254740993 and 9007199254740992 stay apart as in the data.
func ClassIndex(name string, classes []string) int {
	for i, c := range classes {
		if c == name {
			return i
		}
	}
	for i, c := range classes {
		if sameNumber(name, c) {
			return i
		}
	}
	return -1
}

// sameNumber reports whether a and b are the same decimal number.
func sameNumber(a, b string) bool {
	if x, ok := wholeDigits(a); ok {
		if y, ok := wholeDigits(b); ok {
			return x == y
		}
	}
	x, okA := decimal(a)
	y, okB := decimal(b)
	return okA && okB && x == y
}

// wholeDigits returns s, a whole number in decimal digits with an
// optional sign and blanks around it, as digits without leading zeros
// ("-" before a negative one, "0" for −0).
func wholeDigits(s string) (string, bool) {
	t := strings.Trim(s, " \t")
	neg := strings.HasPrefix(t, "-")
	if neg || strings.HasPrefix(t, "+") {
		t = t[1:]
	}
	if t == "" || strings.TrimLeft(t, "0123456789") != "" {
		return "", false
	}
	if t = strings.TrimLeft(t, "0"); t == "" {
		return "0", true
	}
	if neg {
		t = "-" + t
	}
	return t, true
}

// decimal returns s as a finite number when it is written in decimal
// (digits, sign, point, exponent; no hexadecimal, underscores, inf or
// nan).
func decimal(s string) (float64, bool) {
	t := strings.Trim(s, " \t")
	if t == "" || strings.TrimLeft(t, "0123456789+-.eE") != "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(t, 64)
	return v, err == nil && !math.IsInf(v, 0)
}
