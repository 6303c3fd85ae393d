package param

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

func TestBlamed(t *testing.T) {
	knob := WithParam("knob", errors.New("too large"))
	for _, tt := range []struct {
		name string
		err  error
		want []string
	}{
		{"nil", nil, nil},
		{"plain", errors.New("x"), nil},
		{"param", knob, []string{"knob"}},
		{"wrapped", fmt.Errorf("plan: %w", knob), []string{"knob"}},
		{"joined", errors.Join(knob, errors.New("y"), WithParam("C", errors.New("z")), knob), []string{"knob", "C"}},
		{"nested", WithParam("outer", WithParam("inner", errors.New("x"))), []string{"outer"}},
		{"nil err", WithParam("knob", nil), nil},
	} {
		if got := Blamed(tt.err); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Blamed = %v, want %v", tt.name, got, tt.want)
		}
	}
}
