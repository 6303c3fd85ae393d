package cellspec

import (
	"encoding/json"
	"strings"
	"testing"
)

func sample() *Spec {
	return &Spec{Format: Format, Cell: "glass|std|sk|C=1|ova", Seed: 1,
		Dataset:  Dataset{Name: "glass", SHA256: "3f2a9c1d" + strings.Repeat("0", 56), Target: "type", Classes: []string{"a", "b"}},
		Folds:    Folds{Repeats: 1, Folds: 10, SHA256: strings.Repeat("f", 64)},
		Pipeline: []Step{{Name: "std", Type: "standardize", Options: map[string]any{"with_mean": true}}},
		Learner: Learner{Name: "sk", Plugin: Plugin{Name: "sklearn", Version: "0.1.0", SHA256: strings.Repeat("a", 64),
			Runtime: map[string]string{"python": "3.11.2", "scikit-learn": "1.2.1"}}, Params: map[string]any{"C": 1.0, "tol": 1e-4}},
		Reduction: Reduction{Name: "ova", Scheme: "ova", Plugin: Plugin{Name: "reducers", Version: "1", SHA256: strings.Repeat("b", 64)},
			Params: map[string]any{"decode": "hamming"}},
		Metrics: []string{"accuracy"}, Bench: Build{Version: "(devel)", Revision: strings.Repeat("c", 40), Go: "go1.26.8"}}
}

// TestDigestIsCanonical: the canonical encoding is compact JSON, fields in
// the types' order, map keys sorted; the digest is its SHA-256 (sha256sum
// of the text below: c04f5cee…); a decoded copy (as read from a cell
// file) encodes the same. The text pins the encoding: a change of it must
// come with a new Format, since every stored cell's digest changes.
func TestDigestIsCanonical(t *testing.T) {
	s := sample()
	want := `{"format":"polyclass cell spec 1","cell":"glass|std|sk|C=1|ova","seed":1,` +
		`"dataset":{"name":"glass","sha256":"3f2a9c1d` + strings.Repeat("0", 56) + `","target":"type","classes":["a","b"]},` +
		`"folds":{"repeats":1,"folds":10,"sha256":"` + strings.Repeat("f", 64) + `"},` +
		`"pipeline":[{"name":"std","type":"standardize","options":{"with_mean":true}}],` +
		`"learner":{"name":"sk","plugin":{"name":"sklearn","version":"0.1.0","sha256":"` + strings.Repeat("a", 64) + `",` +
		`"runtime":{"python":"3.11.2","scikit-learn":"1.2.1"}},"params":{"C":1,"tol":0.0001}},` +
		`"reduction":{"name":"ova","scheme":"ova","plugin":{"name":"reducers","version":"1","sha256":"` + strings.Repeat("b", 64) + `"},` +
		`"params":{"decode":"hamming"}},"metrics":["accuracy"],` +
		`"bench":{"version":"(devel)","revision":"` + strings.Repeat("c", 40) + `","go":"go1.26.8"}}`
	if got := string(s.Canonical()); got != want {
		t.Errorf("canonical form\n%s\nwant\n%s", got, want)
	}
	if got, want := s.Digest(), "c04f5cee3f0ae4669e32ece7062b80bb91a4faf4bb12b2ae4a0d3a1728e5cc41"; got != want {
		t.Errorf("digest %s, want %s", got, want)
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	var back Spec
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Digest() != s.Digest() {
		t.Errorf("decoded copy: digest %s, want %s\n%s\n%s", back.Digest(), s.Digest(), back.Canonical(), s.Canonical())
	}
}

// TestDiff names what changed, one input a line, in the spec's order.
func TestDiff(t *testing.T) {
	tests := []struct {
		name   string
		change func(s *Spec)
		want   []string
	}{
		{"equal", func(*Spec) {}, nil},
		{"data", func(s *Spec) { s.Dataset.SHA256 = "91c0aa7e" + strings.Repeat("1", 56) },
			[]string{`dataset "glass": sha256 3f2a9c1d… → 91c0aa7e…`}},
		{"scikit-learn", func(s *Spec) {
			s.Learner.Plugin.Runtime = map[string]string{"python": "3.11.2", "scikit-learn": "1.4.2"}
		},
			[]string{`learner "sk": scikit-learn 1.2.1 → 1.4.2`}},
		{"parameter and seed", func(s *Spec) { s.Learner.Params["C"] = 10.0; s.Seed = 2 },
			[]string{"seed: 1 → 2", `learner "sk": C 1 → 10`}},
		{"step option", func(s *Spec) { s.Pipeline[0].Options["with_mean"] = false },
			[]string{`pipeline step 1 "std": option with_mean true → false`}},
		{"bench", func(s *Spec) { s.Bench.Revision = strings.Repeat("d", 40) },
			[]string{"bench: revision cccccccccccccccccccccccccccccccccccccccc → dddddddddddddddddddddddddddddddddddddddd"}},
		{"added", func(s *Spec) { s.ClassWeight = "balanced" }, []string{"class_weight: (none) → balanced"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old, now := sample(), sample()
			tt.change(now)
			if got := Diff(old, now); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestBuildString names a build in one line.
func TestBuildString(t *testing.T) {
	for _, tc := range []struct {
		b    Build
		want string
	}{
		{Build{Version: "v1.2.0"}, "v1.2.0"},
		{Build{Version: "(devel)", Revision: "3f2a9c1d0e4b5a6978"}, "(devel) 3f2a9c1d0e4b…"},
		{Build{Version: "(devel)", Revision: "3f2a9c1d0e4b5a6978", Modified: true, SHA256: "91c0aa7e11223344"}, "(devel) 3f2a9c1d0e4b…+modified sha256 91c0aa7e1122…"},
	} {
		if got := tc.b.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.b, got, tc.want)
		}
	}
}
