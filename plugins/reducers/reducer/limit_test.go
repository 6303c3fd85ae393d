package reducer

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/sdk"
)

// sizeRequest is a plan request of scheme over K classes, two training
// rows each, with the scheme's defaults under params.
func sizeRequest(scheme string, K int, params sdk.Params) sdk.PlanRequest {
	names := make([]string, K)
	labels := make([]int, 2*K)
	for k := range names {
		names[k] = fmt.Sprintf("c%d", k)
	}
	for i := range labels {
		labels[i] = i % K
	}
	return sdk.PlanRequest{Scheme: scheme, Params: withDefaults(scheme, params), NumClasses: K, Labels: labels, ClassNames: names, Seed: 1}
}

// TestPlanSizeLimits: a code of more than MaxProblems columns or
// MaxCodeEntries entries is refused before its matrix is made, naming the
// scheme, the classes, the size and a smaller code, and blaming the
// parameter that set the size; one-vs-one on 3,000 classes ran the plugin
// out of memory, one-vs-all on 5,000 made a plan message over gRPC's 256
// MiB.
func TestPlanSizeLimits(t *testing.T) {
	wide := make([]float64, MaxProblems+1) // a user matrix row of 100,001 columns
	for i := range wide {
		wide[i] = float64(1 - 2*(i%2))
	}
	neg := make([]float64, len(wide))
	for i := range neg {
		neg[i] = -wide[i]
	}
	tests := []struct {
		name   string
		scheme string
		K      int
		params sdk.Params
		want   string
		param  string // the parameter blamed, "" for none
	}{
		{"ovo 3000", "ovo", 3000, nil,
			`ovo on 3,000 classes makes 4,498,500 binary problems, more than the limit of 100,000; use ova (3,000 problems) or an ECOC code (ecoc with code = "random_dense": 116 problems)`, ""},
		// 317 classes: 317 × 50,086 entries fit; both ways, 100,172 columns.
		{"ovo 317 asymmetric", "ovo", 317, sdk.Params{"asymmetric": sdk.Bool(true)},
			"ovo on 317 classes makes 100,172 binary problems, more than the limit of 100,000", ""},
		{"ovo 318", "ovo", 318, nil,
			"ovo on 318 classes makes a 318 × 50,403 code matrix (16,028,154 entries), more than the 16,000,000 entries a plan may carry; use ova (318 problems)", ""},
		// 4,001² entries: one-vs-all itself is too large, ECOC alone is offered.
		{"ova 4001", "ova", 4001, nil,
			`ova on 4,001 classes makes a 4,001 × 4,001 code matrix (16,008,001 entries), more than the 16,000,000 entries a plan may carry; use an ECOC code (ecoc with code = "random_dense": 120 problems)`, ""},
		{"ova 5000", "ova", 5000, nil, "ova on 5,000 classes makes a 5,000 × 5,000 code matrix (25,000,000 entries)", ""},
		{"ordered 4001", "ordered", 4001, nil, "ordered on 4,001 classes makes a 4,001 × 4,000 code matrix (16,004,000 entries)", ""},
		{"random code length", "ecoc", 20, sdk.Params{"code": sdk.String("random_sparse"), "length": sdk.Number(100_001)},
			"ecoc on 20 classes makes 100,001 binary problems, more than the limit of 100,000", "length"},
		// Beyond the 6 distinct sparse columns of 3 classes: the random
		// code's own error, which says more.
		{"random code beyond its columns", "ecoc", 3, sdk.Params{"code": sdk.String("random_sparse"), "length": sdk.Number(100_001)},
			"random code: 100001 columns requested but only 6 distinct usable columns exist for 3 classes", "length"},
		{"user matrix", "ecoc", 2, sdk.Params{"matrix": matrixValue(wide, neg)},
			"ecoc on 2 classes makes 100,001 binary problems", "matrix"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New().Plan(context.Background(), sizeRequest(tt.scheme, tt.K, tt.params))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to contain %q", err, tt.want)
			}
			var pe *sdk.ParamError
			got := ""
			if errors.As(err, &pe) {
				got = pe.Param
			}
			if got != tt.param {
				t.Errorf("error blames parameter %q, want %q", got, tt.param)
			}
		})
	}
}

// TestPlanAtTheLimits: the largest one-vs-all and one-vs-one codes the
// limits let through plan over the protocol (the message fits gRPC's 256
// MiB), with their diagnostics in closed form, and one-vs-all's plan
// allocates well under the 256 MB that its coverage probe alone took
// before (a dense L × K float64 table, copied) besides the O(K³)
// comparison of its rows.
func TestPlanAtTheLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("plans of 16,000,000 entries")
	}
	c := connect(t)
	tests := []struct {
		scheme   string
		K, L     int
		min      float64
		maxAlloc uint64 // bytes Plan may allocate in-process
	}{
		{"ova", 4000, 4000, 2, 128 << 20},
		{"ovo", 317, 50086, 25043.5, 256 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.scheme, func(t *testing.T) {
			req := sizeRequest(tt.scheme, tt.K, nil)
			plan, err := c.Plan(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if len(plan.Problems) != tt.L || plan.Code == nil || plan.Code.Rows != tt.K || plan.Code.Cols != tt.L {
				t.Fatalf("%d problems, code %d × %d, want %d problems of a %d × %d code", len(plan.Problems), plan.Code.Rows, plan.Code.Cols, tt.L, tt.K, tt.L)
			}
			if d := plan.Diagnostics; d.MinDistance != tt.min || d.MeanDistance != tt.min {
				t.Errorf("distances min %v mean %v, want %v", d.MinDistance, d.MeanDistance, tt.min)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			if _, err := New().Plan(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			if n := after.TotalAlloc - before.TotalAlloc; n > tt.maxAlloc {
				t.Errorf("Plan allocated %d MiB, want at most %d", n>>20, tt.maxAlloc>>20)
			}
		})
	}
}

func TestGrouped(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 4498500: "4,498,500", -16000000: "-16,000,000"} {
		if got := grouped(n); got != want {
			t.Errorf("grouped(%d) = %q, want %q", n, got, want)
		}
	}
}
