package sdk

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// heapGoal returns the collector's current heap goal.
func heapGoal() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestHoldHeapFloor: while the floor is held the collector's goal is at
// least HeapFloor × (1 + GCPercent/100) (the block counts as live heap);
// once released and collected, it falls back below HeapFloor (the test
// binary's own heap is a few MB).
func TestHoldHeapFloor(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(GCPercent))
	release := HoldHeapFloor()
	runtime.GC()
	if got, want := heapGoal(), uint64(HeapFloor)*(100+GCPercent)/100; got < want {
		t.Errorf("heap goal %d with the floor held, want ≥ %d", got, want)
	}
	release()
	runtime.GC()
	if got := heapGoal(); got >= HeapFloor {
		t.Errorf("heap goal %d after the floor's release, want < %d", got, HeapFloor)
	}
}
