package data

import "testing"

func TestFormatName(t *testing.T) {
	tests := []struct {
		path, want string
	}{
		{"iris.csv", "csv"},
		{"dir/iris.tsv", "tsv"},
		{"yeast.arff", "arff"},
		{"YEAST.ARFF.GZ", "arff"},
		{"a9a.svmlight", "libsvm"},
		{"news20.txt.gz", "libsvm"},
		{"iris.xlsx", ""},
		{"iris.arff.zip", ""},
		{"noextension", ""},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := FormatName(tt.path); got != tt.want {
				t.Errorf("FormatName(%q) = %q, want %q", tt.path, got, tt.want)
			}
		})
	}
}
